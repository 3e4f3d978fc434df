"""How a finished game ended (its own module: a bot process reads outcomes without
importing the rules)."""

from __future__ import annotations

from engine.phases import Termination
from engine.static_typing import TYPE_CHECKING
from engine.valueclass import value_class

if TYPE_CHECKING:
    from typing import Any


@value_class
class Outcome:
    """How a finished game ended. ``winner`` is None when the turn cap truncated it."""

    termination: Termination
    winner: int | None
    points: tuple[int, ...]
    """Total points per seat, victory point cards included."""
    placings: tuple[int, ...]
    """Place per seat (1 = first; equal points share a place)."""
    turns: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "termination": self.termination.label,
            "winner": self.winner,
            "points": list(self.points),
            "placings": list(self.placings),
            "turns": self.turns,
        }
