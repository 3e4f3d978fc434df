"""What a match produces: faults, per-seat timing, forfeits and the :class:`MatchResult`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from arena_runner.timeouts import TimeoutClock
from bots.protocol import TEXT_LIMITS, clean_text
from engine import Outcome
from engine.replay import Replay


class FaultKind(Enum):
    """How a decision failed. Every kind but PLATFORM is the bot's fault (a strike)."""

    TIMEOUT = "timeout"
    """A clock ran out (:class:`~arena_runner.timeouts.TimeoutClock` says which): no reply
    within a wall-clock cap (the process is killed), or the time bank ran out."""
    CRASH = "crash"
    """The bot process died (exit, signal) after its sandbox was up."""
    ERROR = "error"
    """The bot raised, or returned something that is not an action."""
    ILLEGAL = "illegal"
    """A well-formed action that the rules do not allow now."""
    GARBAGE = "garbage"
    """A reply that is not a valid protocol message or action, too long, or unasked."""
    RESOURCE = "resource"
    """A resource limit stopped the bot: memory, RLIMIT_CPU (SIGXCPU/SIGKILL), cgroup."""
    PLATFORM = "platform"
    """Not the bot's fault: the sandbox failed to start or lacked a layer. Voids the match."""

    @property
    def is_bot_fault(self) -> bool:
        return self is not FaultKind.PLATFORM


@dataclass(frozen=True, slots=True)
class Fault:
    """One failure: ``step`` is the index of the decision (history length). ``message``
    and ``detail`` may quote the bot: they are cleaned and clipped on the way in
    (:func:`bots.protocol.clean_text`), so they are safe to store and to print."""

    seat: int
    step: int
    kind: FaultKind
    message: str
    detail: str = ""
    """A traceback or the end of the bot's log, when there is one."""
    clock: TimeoutClock | None = None
    """For a TIMEOUT: which clock ran out (the message gives its figures)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", clean_text(self.message, TEXT_LIMITS["message"]))
        object.__setattr__(self, "detail", clean_text(self.detail, TEXT_LIMITS["traceback"]))

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "step": self.step,
            "kind": self.kind.value,
            "message": self.message,
        } | ({} if self.clock is None else {"clock": self.clock.value})


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A seat taken over by the autopilot from ``step`` on."""

    seat: int
    step: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "step": self.step, "reason": self.reason}


@dataclass(slots=True)
class SeatStats:
    """Decision timing of one seat: wall clock (round trip included) and the bot's CPU."""

    decisions: int = 0
    total: float = 0.0
    max: float = 0.0
    cpu: float = 0.0
    """CPU seconds charged to the bot for its decisions (what the time bank pays for)."""
    offturn_cpu: float = 0.0
    """CPU seconds the bot used between its decisions (frozen bots: about zero)."""
    bank_left: float = 0.0
    defaults: int = 0
    """Decisions the match made for the seat (after a fault)."""
    autopilot: int = 0
    """Decisions the autopilot made after the seat was forfeited."""
    forced: int = 0
    """Decisions with a single legal action, applied without asking the bot."""

    @property
    def mean(self) -> float:
        return self.total / self.decisions if self.decisions else 0.0

    def add(self, seconds: float) -> None:
        self.decisions += 1
        self.total += seconds
        self.max = max(self.max, seconds)


def placings_with_forfeits(outcome: Outcome, forfeited: set[int]) -> tuple[int, ...]:
    """The engine's placings with every forfeited seat behind every other one; forfeited
    seats are ranked among themselves by points (equal keys share a place)."""
    keys = [
        (s not in forfeited, -outcome.placings[s] if s not in forfeited else outcome.points[s])
        for s in range(len(outcome.placings))
    ]
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


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
    forfeits: list[Forfeit] = field(default_factory=list)
    tiers: list[str] = field(default_factory=list)
    """The sandbox tier each seat's bot actually ran at (``in-process`` for trusted ones)."""
    voided: str | None = None
    """Why the match does not count (a platform fault); None for a valid match."""

    @property
    def tier(self) -> str:
        """The weakest sandbox tier of the match (``in-process`` if no bot had a process)."""
        order = ["NONE", "NO_LANDLOCK", "NO_NAMESPACES", "BWRAP_NO_LANDLOCK", "FULL"]
        used = [t for t in self.tiers if t in order]
        return min(used, key=order.index) if used else "in-process"

    @property
    def strikes(self) -> list[int]:
        """Bot faults per seat."""
        return [sum(f.kind.is_bot_fault for f in seat) for seat in self.faults]

    @property
    def forfeited(self) -> set[int]:
        return {f.seat for f in self.forfeits}

    @property
    def placings(self) -> tuple[int, ...]:
        """Places for rating: forfeited seats last (see :func:`placings_with_forfeits`)."""
        return placings_with_forfeits(self.outcome, self.forfeited)

    @property
    def winner(self) -> int | None:
        """The seat credited with the win: the engine's winner unless that seat was
        forfeited (then its autopilot won, and nobody is credited)."""
        winner = self.outcome.winner
        return None if winner is None or winner in self.forfeited else winner

    @property
    def all_faults(self) -> list[Fault]:
        return sorted((f for seat in self.faults for f in seat), key=lambda f: (f.step, f.seat))
