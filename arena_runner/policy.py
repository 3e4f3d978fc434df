"""Which sandbox the runner puts bots in: the tier, the limits, the uid, cgroups or not."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from arena_runner.sandbox.launch import SANDBOX_UID
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import SandboxUnavailable, Tier, probe, require

ENV_TIER = "CATAN_SANDBOX_TIER"
"""Ask for one tier explicitly (``NONE`` for fast local play with your own bots)."""


@dataclass(frozen=True)
class SandboxPolicy:
    """How every bot process of a runner is confined.

    ``freeze``: stop bots that are not on turn (cgroup freezer, else SIGSTOP/SIGCONT).
    ``cgroups``: give each bot its own cgroup (only where the probe found them usable).
    ``jail_layers``: tests of single layers only — the in-child layers to apply and
    require instead of the tier's own.
    """

    tier: Tier
    limits: Limits = field(default_factory=Limits)
    uid: int = SANDBOX_UID
    cgroups: bool = False
    freeze: bool = True
    jail_layers: tuple[str, ...] | None = None

    @property
    def required_layers(self) -> tuple[str, ...]:
        """The in-child layers every bot's hello must report as applied."""
        return self.tier.jail_layers if self.jail_layers is None else self.jail_layers


def resolve_policy(
    requested: str | Tier | None = None,
    *,
    limits: Limits | None = None,
    uid: int = SANDBOX_UID,
) -> SandboxPolicy:
    """The policy for this host, failing closed.

    ``requested`` (else ``$CATAN_SANDBOX_TIER``) names a tier to use exactly: ``NONE``
    is always granted (trusted local bots), a stronger one only if the probe supports it.
    Without a request the probed tier is used, provided it meets
    ``$CATAN_SANDBOX_MIN_TIER`` (default FULL); otherwise ``SandboxUnavailable``.
    """
    limits = limits or Limits()
    if requested is None:
        requested = os.environ.get(ENV_TIER) or None
    if isinstance(requested, str):
        try:
            requested = Tier[requested.strip().upper()]
        except KeyError:
            names = ", ".join(t.name for t in Tier)
            raise SandboxUnavailable(f"unknown sandbox tier {requested!r} ({names})") from None
    if requested is Tier.NONE:
        return SandboxPolicy(Tier.NONE, limits, uid, cgroups=False)
    found = require() if requested is None else require(requested)
    tier = found.tier if requested is None else requested
    use_cgroups = found.cgroups is not None and os.geteuid() == 0
    return SandboxPolicy(tier, limits, uid, cgroups=use_cgroups)


def host_summary() -> str:
    """One line describing what the probe found (for ``validate`` and logs)."""
    return probe().summary()
