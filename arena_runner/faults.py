"""Telling bot faults apart: how a process died, what an ``error`` reply means."""

from __future__ import annotations

import signal

from arena_runner.result import FaultKind
from arena_runner.sandbox.tiers import Tier

RESOURCE_SIGNALS = {signal.SIGXCPU, signal.SIGXFSZ, signal.SIGKILL}
"""Signals the kernel sends on a limit (RLIMIT_CPU soft/hard, RLIMIT_FSIZE, cgroup OOM)."""
RESOURCE_ERRORS = ("raised MemoryError", "raised RecursionError")


def classify_death(code: int | None, tier: Tier, *, killed: bool) -> tuple[FaultKind, str]:
    """The fault kind and a description for a bot process that ended with ``code``.

    bwrap (FULL tier) reports a child killed by signal N as exit status 128 + N."""
    sig = None
    if code is not None and code < 0:
        sig = -code
    elif code is not None and tier.uses_bwrap and code > 128:
        sig = code - 128
    if sig is None:
        return FaultKind.CRASH, f"exited with code {code}"
    try:
        name = signal.Signals(sig).name
    except ValueError:
        name = f"signal {sig}"
    if killed:
        return FaultKind.CRASH, f"stopped answering and was killed ({name})"
    if sig in RESOURCE_SIGNALS:
        return FaultKind.RESOURCE, f"was killed by {name} (a resource limit)"
    return FaultKind.CRASH, f"was killed by signal {name}"


def classify_error(message: str) -> FaultKind:
    """An ``error`` reply: RESOURCE when the bot ran out of memory or stack, else ERROR."""
    return FaultKind.RESOURCE if any(m in message for m in RESOURCE_ERRORS) else FaultKind.ERROR
