"""How long the ``search`` bot may think on one decision (helpers only).

Three clocks bound a decision (``observation.clock``): ``decision`` (CPU seconds for
this decision), ``bank`` (CPU overage left for the game) and ``game`` (wall-clock seconds
left for all the seat's remaining decisions). The bot stops thinking at the first of two
deadlines: a share of ``decision`` in CPU time (so the bank is never drawn on), and a
wall-clock share of ``game`` spread over the searched decisions still to come, after a
reserve for answering every decision, and never more than ``decision`` itself (the
platform charges wall clock beyond a decision's budget like CPU, so a longer think could
draw on the bank).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine import Clock

DEFAULT_BUDGET: Final = 0.1
"""Seconds per decision when the observation carries no clock."""
SAFETY: Final = 0.75
"""Share of the decision's CPU budget used (the rest: reading and answering)."""
MARGIN: Final = 0.003
"""Seconds kept back from every budget."""
WALL_FACTOR: Final = 1.0
"""Wall-clock seconds one decision may think, in decision budgets."""
DECISIONS_AHEAD: Final = 80
"""Searched decisions ``clock.game`` is spread over (a seat searches 40-80 in a game)."""
RESERVE_PER_DECISION: Final = 0.004
"""Seconds of ``clock.game`` kept for each of :data:`ANSWERS_AHEAD` decisions."""
ANSWERS_AHEAD: Final = 250


@dataclass(frozen=True, slots=True)
class Budget:
    """Seconds one searched decision may think, on each clock."""

    cpu: float
    wall: float


def think_budget(clock: Clock | None) -> Budget:
    """The CPU and wall-clock seconds of one searched decision (0 when nothing is left)."""
    decision = DEFAULT_BUDGET if clock is None else clock.decision
    cpu = max(0.0, decision * SAFETY - MARGIN)
    wall = WALL_FACTOR * decision
    if clock is not None and clock.game is not None:
        spare = clock.game - RESERVE_PER_DECISION * ANSWERS_AHEAD
        wall = min(wall, spare / DECISIONS_AHEAD)
    return Budget(cpu, max(0.0, wall))


def _frozen() -> float:
    return 0.0


def make_reproducible(player: object, samples: int) -> None:
    """For in-process tuning: freeze ``player``'s ``clock`` and ``cpu_clock`` and cap
    its ``max_samples`` (where it has them), so its games replay from the seed alone,
    whatever the machine's load."""
    for name in ("clock", "cpu_clock"):
        if hasattr(player, name):
            setattr(player, name, _frozen)
    if hasattr(player, "max_samples"):
        player.max_samples = samples
