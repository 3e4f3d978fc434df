"""A bot's clock, defined once: the defaults (per decision, bank, the game's wall-clock
budget) and the bounds any clock must keep, with the one check of them.

Plain Python (no Django): ``catan-arena``, the runner, validation and the platform
import it; the platform's settings take their defaults from here and its services,
API, forms, admin and commands refuse what :func:`clock_problem` refuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

N = TypeVar("N", int, float)

DECISION_SECONDS = 1.0
"""CPU seconds per decision: the platform's matches (ladder default) and validation."""
TIME_BANK_SECONDS = 10.0
"""CPU seconds of overage bank per game, on top of the decisions' budgets."""
PLAY_DECISION_SECONDS = 5.0
"""``catan-arena play``'s default per decision (``--timeout``): a game on one's own
machine, where a slow bot holds no worker, gets more room than the platform's."""
GAME_DECISIONS = 120
"""A seat's default wall-clock budget for one game is this many full decisions plus its
bank: a bot that thinks its whole clock on every decision plays ~120 decisions (a
typical game asks 100-300), one that sleeps cannot hold a worker for hours."""


def game_budget(decision: float, bank: float) -> float:
    """The default wall-clock seconds one seat may spend deciding in one game."""
    return GAME_DECISIONS * decision + bank


@dataclass(frozen=True)
class Bound(Generic[N]):
    """The values a setting may take, both ends included."""

    low: N
    high: N

    def problem(self, words: str, value: N, unit: str = "") -> str | None:
        """Why ``value`` is out of bounds (naming the setting in ``words``), or None."""
        if self.low <= value <= self.high:
            return None
        return f"{words}: {self.low:g} to {self.high:g}{unit}, not {value:g}"


DECISION_BOUND = Bound(0.05, 60.0)
"""Seconds of CPU per decision (below it the process round trip is most of the clock)."""
TIME_BANK_BOUND = Bound(0.0, 600.0)
GAME_SECONDS_BOUND = Bound(1.0, game_budget(DECISION_BOUND.high, TIME_BANK_BOUND.high))
"""An explicit wall-clock budget per seat and game (by default :func:`game_budget`)."""


def clock_problem(decision: float, bank: float, game_seconds: float | None = None) -> str | None:
    """What is wrong with a clock, in words, or None: the one check of the bounds."""
    return (
        DECISION_BOUND.problem("seconds per decision", decision, " s")
        or TIME_BANK_BOUND.problem("time bank", bank, " s")
        or (
            GAME_SECONDS_BOUND.problem("seconds per game", game_seconds, " s")
            if game_seconds is not None
            else None
        )
    )
