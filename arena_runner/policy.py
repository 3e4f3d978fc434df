"""Which sandbox the runner puts bots in: the tier, the limits, the uid, cgroups or not."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field

from arena_runner.env import EnvError, env_choice, raw
from arena_runner.sandbox import uids
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import (
    SandboxUnavailable,
    Tier,
    cgroups_required,
    configured_minimum,
    probe,
    require,
)

log = logging.getLogger("arena_runner.sandbox")

ENV_TIER = "CATAN_SANDBOX_TIER"
"""Ask for one tier explicitly (``NONE`` for fast local play with your own bots)."""


def check_environment() -> None:
    """Read every sandbox variable a worker reads at run (tiers, cgroups, uid pool) so
    that a bad value stops the platform's start-up (``EnvError`` naming it), not its
    first match."""
    env_choice(ENV_TIER, Tier.FULL.name, (t.name for t in Tier))
    try:
        configured_minimum()
        cgroups_required()
    except SandboxUnavailable as exc:
        raise EnvError(str(exc)) from None
    uids.pool()


@dataclass(frozen=True)
class SandboxPolicy:
    """How every bot process of a runner is confined.

    ``freeze``: stop bots that are not on turn (cgroup freezer, else SIGSTOP/SIGCONT).
    ``cgroups``: give each bot its own cgroup (only where the probe found them usable).
    ``jail_layers``: tests of single layers only — the in-child layers to apply and
    require instead of the tier's own.
    ``leave_asleep``: leave a bot asleep on its input pipe unfrozen where that sleep holds
    (:attr:`sleep_holds`); False (benchmarks, tests) freezes it all the same.
    """

    tier: Tier
    limits: Limits = field(default_factory=Limits)
    uid: int | None = None
    """None: each bot process claims its own uid from the pool
    (:mod:`arena_runner.sandbox.uids`); a number: every bot runs as that uid (tests)."""
    cgroups: bool = False
    freeze: bool = True
    jail_layers: tuple[str, ...] | None = None
    leave_asleep: bool = True

    @property
    def required_layers(self) -> tuple[str, ...]:
        """The in-child layers every bot's hello must report as applied."""
        return self.tier.jail_layers if self.jail_layers is None else self.jail_layers

    @property
    def sleep_holds(self) -> bool:
        """True when a bot asleep reading a pipe stays asleep until the runner writes to
        it: seccomp (a required layer) denies it every timer and every signal to another
        process, and it cannot fork or start threads; bwrap's namespaces keep every other
        bot from its process, its pipes (``/proc/PID/fd``) and its tmp (a FIFO there).
        Such a bot needs no freeze while others decide (:meth:`SubprocessDriver.pause`)."""
        return self.tier.uses_bwrap and "seccomp" in self.required_layers


UNTRUSTED_MINIMUM = Tier.NO_NAMESPACES
"""The weakest tier untrusted bots may run at: below it (NO_LANDLOCK, NONE) every seat
can read the others' files or signal them; those tiers are for your own bots only."""


def resolve_policy(
    requested: str | Tier | None = None,
    *,
    limits: Limits | None = None,
    uid: int | None = None,
    trusted_local: bool = False,
) -> SandboxPolicy:
    """The policy for this host, failing closed.

    ``requested`` (else ``$CATAN_SANDBOX_TIER``) names a tier to use exactly, a strong
    one only if the probe supports it. Tiers below :data:`UNTRUSTED_MINIMUM` (``NONE``
    runs bots unconfined) are granted only with ``trusted_local`` — a person running
    their own bots who asked for it (``--sandbox-tier``), never an environment variable
    left in a worker's environment. Without a request the probed tier is used, provided
    it meets ``$CATAN_SANDBOX_MIN_TIER`` (default FULL); otherwise ``SandboxUnavailable``.
    A host without usable cgroups is logged as a warning (bots are then bounded by
    rlimits alone, and frozen with signals).
    """
    limits = limits or Limits()
    if requested is None:
        requested = raw(ENV_TIER)
    if isinstance(requested, str):
        try:
            requested = Tier[requested.strip().upper()]
        except KeyError:
            names = ", ".join(t.name for t in Tier)
            raise SandboxUnavailable(f"unknown sandbox tier {requested!r} ({names})") from None
    weak = requested is not None and requested < UNTRUSTED_MINIMUM
    if weak and not trusted_local:
        assert isinstance(requested, Tier)
        raise SandboxUnavailable(
            f"sandbox tier {requested.name} is for your own bots only (other seats' files "
            "and processes are within reach; NONE does not confine at all): ask for it "
            "explicitly (catan-arena ... --sandbox-tier), never through "
            f"${ENV_TIER} in a worker's environment"
        )
    if requested is Tier.NONE:
        log.warning("sandbox tier NONE: bots run unconfined (trusted local run)")
        return SandboxPolicy(Tier.NONE, limits, uid, cgroups=False)
    found = require() if requested is None else require(requested)
    tier = found.tier if requested is None else requested
    if tier < UNTRUSTED_MINIMUM and not trusted_local:
        raise SandboxUnavailable(
            f"this host supports only sandbox tier {tier.name}, too weak for untrusted bots "
            f"(at least {UNTRUSTED_MINIMUM.name}): {found.summary()}"
        )
    use_cgroups = found.cgroups is not None and os.geteuid() == 0
    if not use_cgroups:
        log.warning(
            "no usable cgroups: bot memory is bounded by RLIMIT_AS only and bots are frozen "
            "with SIGSTOP (seccomp denies the ways to wake themselves): %s",
            found.summary(),
        )
    return SandboxPolicy(tier, limits, uid, cgroups=use_cgroups)


def host_summary() -> str:
    """One line describing what the probe found (for ``validate`` and logs)."""
    return probe().summary()
