"""What anyone may read about how a bot failed, defined once: a fault's kind and, for a
time-out, the clock that ran out, in plain words. Never the bot's own words (exception
text, tracebacks, what it printed), file paths, host names or process ids: those are
its author's (the full fault, the seat's log, the validation report)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena_runner.timeouts import TimeoutClock

PLAIN: dict[str, str] = {
    "timeout": "timed out",
    "crash": "crashed",
    "error": "raised an error",
    "illegal": "chose an illegal action",
    "garbage": "sent a reply that could not be understood",
    "resource": "hit a resource limit",
    "platform": "the sandbox failed (not the bot's fault)",
    "package": "its package was refused (caps, encoding or layout)",
}
"""Each fault kind (and a refused package) in a few words."""

CLOCKS: dict[str, str] = {
    TimeoutClock.DECISION.value: "decision wall clock",
    TimeoutClock.BANK.value: "time bank",
    TimeoutClock.GAME.value: "game budget",
    TimeoutClock.START.value: "start-up",
    TimeoutClock.END.value: "end of game",
    TimeoutClock.AWAY.value: "the person was away",
}


def plain_reason(kind: str, clock: str | None = None) -> str:
    """``kind`` (and ``clock``) in plain words: "crashed", "timed out: game budget"."""
    words = PLAIN.get(kind, "failed")
    if kind == "timeout" and clock in CLOCKS:
        words += f": {CLOCKS[str(clock)]}"
    return words


def public_fault(fault: Mapping[str, Any]) -> dict[str, Any]:
    """A stored fault (``Fault.to_dict``) without its message: seat, step, kind, clock
    and the plain reason."""
    kind, clock = str(fault.get("kind", "")), fault.get("clock")
    shown = {"seat": fault.get("seat"), "step": fault.get("step"), "kind": kind}
    if clock is not None:
        shown["clock"] = clock
    return shown | {"reason": plain_reason(kind, clock)}


def public_forfeit(
    forfeit: Mapping[str, Any], faults: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """A stored forfeit (``Forfeit.to_dict``) with its reason in plain words: the seat's
    last fault up to the forfeit (its stored reason may quote the bot)."""
    step = forfeit.get("step")
    before = [f for f in faults if step is None or (f.get("step") or 0) <= step]
    last = before[-1] if before else None
    reason = "too many faults"
    if last is not None:
        reason = plain_reason(str(last.get("kind", "")), last.get("clock"))
    return {"seat": forfeit.get("seat"), "step": step, "reason": reason}
