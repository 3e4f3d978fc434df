"""What a match produces: faults, per-seat timing, and the :class:`MatchResult`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine import Outcome
from engine.replay import Replay


class FaultKind(Enum):
    """How a bot failed a decision (the match then plays a safe default for it)."""

    TIMEOUT = "timeout"
    """No reply within the decision time (the process is killed)."""
    CRASH = "crash"
    """The bot process died or could not be started."""
    ERROR = "error"
    """The bot raised, or returned something that is not an action."""
    ILLEGAL = "illegal"
    """A well-formed action that the rules do not allow now."""
    GARBAGE = "garbage"
    """A reply that is not a valid protocol message or action."""


@dataclass(frozen=True, slots=True)
class Fault:
    """One bot failure: ``step`` is the index of the decision (history length)."""

    seat: int
    step: int
    kind: FaultKind
    message: str
    detail: str = ""
    """A traceback or the end of the bot's log, when there is one."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "step": self.step,
            "kind": self.kind.value,
            "message": self.message,
        }


@dataclass(slots=True)
class SeatStats:
    """Decision timing of one seat (wall-clock seconds, round trip included)."""

    decisions: int = 0
    total: float = 0.0
    max: float = 0.0
    defaults: int = 0
    """Decisions the match made for the seat (after a fault, or for a dead process)."""

    @property
    def mean(self) -> float:
        return self.total / self.decisions if self.decisions else 0.0

    def add(self, seconds: float) -> None:
        self.decisions += 1
        self.total += seconds
        self.max = max(self.max, seconds)


@dataclass(slots=True)
class MatchResult:
    """One finished game and how each seat's bot behaved."""

    replay: Replay
    outcome: Outcome
    faults: list[list[Fault]]
    """Faults per seat, in order."""
    stats: list[SeatStats]
    logs: list[str] = field(default_factory=list)
    """What each seat's bot wrote to stderr/stdout during the game (capped)."""

    @property
    def placings(self) -> tuple[int, ...]:
        return self.outcome.placings

    @property
    def all_faults(self) -> list[Fault]:
        return sorted((f for seat in self.faults for f in seat), key=lambda f: (f.step, f.seat))
