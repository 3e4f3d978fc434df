"""Sandbox tiers, the host probe that picks one, and the fail-closed ``require``."""

from __future__ import annotations

import enum
import functools
import json
import logging
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from arena_runner.env import EnvError, env_bool, env_choice

log = logging.getLogger("arena_runner.sandbox")

ENV_MIN_TIER = "CATAN_SANDBOX_MIN_TIER"
ENV_REQUIRE_CGROUPS = "CATAN_SANDBOX_REQUIRE_CGROUPS"
JAIL_LAYERS = ("rlimits", "no_new_privs", "landlock", "seccomp")


class Tier(enum.IntEnum):
    """How a bot is confined, strongest first (compare with ``<``/``>=``)."""

    NONE = 0  # plain subprocess: trusted or local bots only
    NO_LANDLOCK = 1  # unprivileged uid + rlimits + no_new_privs + seccomp
    NO_NAMESPACES = 2  # ... + Landlock (no bwrap)
    BWRAP_NO_LANDLOCK = 3  # bwrap namespaces + uid + rlimits + no_new_privs + seccomp
    FULL = 4  # bwrap namespaces + all of the above

    @property
    def uses_bwrap(self) -> bool:
        return self in (Tier.FULL, Tier.BWRAP_NO_LANDLOCK)

    @property
    def jail_layers(self) -> tuple[str, ...]:
        """The in-child layers ``bots.jail`` must apply at this tier (fail closed)."""
        if self is Tier.NONE:
            return ()
        if self in (Tier.NO_LANDLOCK, Tier.BWRAP_NO_LANDLOCK):
            return tuple(name for name in JAIL_LAYERS if name != "landlock")
        return JAIL_LAYERS


class SandboxUnavailable(RuntimeError):
    """The host cannot provide the configured minimum tier."""


@dataclass(frozen=True)
class ProbeResult:
    """What was tried on this host, and the tier it supports."""

    tier: Tier
    bwrap: bool
    jail: dict[str, bool] = field(default_factory=dict)
    landlock_abi: int = 0
    cgroups: str | None = None  # "v1", "v2" or None (then SIGSTOP/SIGCONT freezing)
    reasons: tuple[str, ...] = ()

    def summary(self) -> str:
        why = "; ".join(self.reasons) or "every layer works"
        return (
            f"sandbox tier {self.tier.name} (bwrap={self.bwrap}, jail={self.jail}, "
            f"landlock ABI {self.landlock_abi}, cgroups={self.cgroups}): {why}"
        )


_PROBE_SCRIPT = "import json\nprint(json.dumps(JAIL_REPORT))\n"


def _try_jail(tier: Tier, workdir: Path) -> tuple[dict[str, object] | None, str]:
    from arena_runner.sandbox.launch import spawn_sandboxed
    from arena_runner.sandbox.limits import Limits

    script = workdir / "probe.py"
    script.write_text(_PROBE_SCRIPT)
    proc = spawn_sandboxed(
        script, tier=tier, limits=Limits(), workdir=workdir, module="bots.jail", require=()
    )
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None, "timed out"
    if proc.returncode != 0:
        return None, err.decode(errors="replace").strip()[-300:] or f"exit {proc.returncode}"
    return json.loads(out), ""


@functools.cache
def probe() -> ProbeResult:
    """Try each layer once (cached per process) and pick the strongest working tier."""
    from arena_runner.sandbox import cgroups
    from arena_runner.sandbox.botenv import ensure_botenv

    reasons: list[str] = []
    try:
        ensure_botenv()
    except Exception as exc:
        result = ProbeResult(Tier.NONE, False, reasons=(f"bot runtime venv: {exc}",))
        log.warning(result.summary())
        return result
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        reasons.append("running as root without setpriv: cannot drop to the sandbox uid")
        result = ProbeResult(Tier.NONE, False, reasons=tuple(reasons))
        log.warning(result.summary())
        return result
    with tempfile.TemporaryDirectory(prefix="catan-probe-") as tmp:
        report, why = (None, "bwrap not installed")
        if shutil.which("bwrap"):
            report, why = _try_jail(Tier.FULL, Path(tmp))
        bwrap = report is not None
        if not bwrap:
            reasons.append(f"bwrap failed: {why}")
            report, why = _try_jail(Tier.NO_NAMESPACES, Path(tmp))
    jail: dict[str, bool] = dict(report["applied"]) if report else {}  # type: ignore[call-overload]
    if report is None:
        reasons.append(f"unprivileged python failed: {why}")
    else:
        for name, error in dict(report["errors"]).items():  # type: ignore[call-overload]
            reasons.append(f"{name} failed: {error}")
    tier = Tier.NONE
    same_uid = os.geteuid() != 0  # the bot would run as the worker's own uid
    if same_uid and not jail.get("landlock"):
        reasons.append("non-root worker without Landlock: the bot could read the worker's /proc")
    for candidate in (Tier.FULL, Tier.BWRAP_NO_LANDLOCK, Tier.NO_NAMESPACES, Tier.NO_LANDLOCK):
        if candidate is Tier.NO_LANDLOCK and same_uid:
            continue
        if (bwrap or not candidate.uses_bwrap) and all(jail.get(n) for n in candidate.jail_layers):
            tier = candidate
            break
    abi = int(report["landlock_abi"]) if report else 0  # type: ignore[call-overload]
    version = cgroups.usable_version()
    if version is None:
        reasons.append("no writable cgroup hierarchy: freezing falls back to SIGSTOP/SIGCONT")
    result = ProbeResult(tier, bwrap, jail, abi, version, tuple(reasons))
    log.info(result.summary())
    return result


def configured_minimum() -> Tier:
    """``$CATAN_SANDBOX_MIN_TIER`` (a tier name), FULL by default."""
    try:
        return Tier[env_choice(ENV_MIN_TIER, Tier.FULL.name, (t.name for t in Tier))]
    except EnvError as exc:
        raise SandboxUnavailable(str(exc)) from None


def cgroups_required() -> bool:
    """``$CATAN_SANDBOX_REQUIRE_CGROUPS`` (a boolean), off by default."""
    try:
        return env_bool(ENV_REQUIRE_CGROUPS, False)
    except EnvError as exc:
        raise SandboxUnavailable(str(exc)) from None


def require(minimum: Tier | None = None, *, cgroups: bool | None = None) -> ProbeResult:
    """Return the probe result, or raise ``SandboxUnavailable`` below ``minimum``."""
    minimum = configured_minimum() if minimum is None else minimum
    if cgroups is None:
        cgroups = cgroups_required()
    result = probe()
    if result.tier < minimum:
        raise SandboxUnavailable(
            f"this host supports sandbox tier {result.tier.name}, below the required "
            f"{minimum.name} (set {ENV_MIN_TIER} to accept less): {result.summary()}"
        )
    if cgroups and result.cgroups is None:
        raise SandboxUnavailable(f"cgroups are required but unavailable: {result.summary()}")
    return result
