"""Which clock a time-out ran out of, and its message: the figures and what to change.

A bot has three clocks while it decides (see the bot guide): ``clock.decision`` (CPU per
decision), ``clock.bank`` (CPU beyond the decisions' budgets, for the whole game) and
``clock.game`` (the wall clock its decisions may take in the whole game). Wall clock is
charged like CPU (:func:`decision_cost`): a decision costs its CPU or its wall clock less
:data:`WALL_SLACK`, whichever is more, so a bot that sleeps pays from the same decision
budget and bank as one that computes, and one decision's wall clock is capped where that
cost would overdraw the bank (:func:`decision_wall_cap`). Start-up (import +
``on_game_start``) and the end-of-game message have limits of their own. Every TIMEOUT
fault names one :class:`TimeoutClock`; the messages are built here only.
"""

from __future__ import annotations

from enum import Enum

WALL_SLACK = 0.1
"""Wall-clock seconds of one decision that are never charged: the hand-over, scheduling
on a busy machine, the freeze and thaw. Beyond it, waiting costs what computing costs."""


def decision_cost(cpu: float, wall: float) -> float:
    """What one decision costs the bot's clock: its CPU, or its wall clock less
    :data:`WALL_SLACK` when that is more (sleeping and waiting are charged like CPU).
    ``wall`` leaves out the time the bot was runnable but waiting for a CPU (the
    kernel's schedstat): a busy machine's load is never charged to a bot."""
    return max(cpu, wall - WALL_SLACK)


def decision_wall_cap(decision: float, bank: float) -> float:
    """The most wall clock one decision may take: its CPU budget, the bank left and the
    slack (past it the cost overdraws the bank)."""
    return decision + bank + WALL_SLACK


class TimeoutClock(Enum):
    """The clock that ran out (stored with a fault as its value)."""

    DECISION = "decision"
    """One decision's wall clock: ``clock.decision + clock.bank + WALL_SLACK``."""
    BANK = "bank"
    """CPU: a decision's budget plus the whole time bank left."""
    GAME = "game"
    """The seat's wall-clock budget for the game (``clock.game`` is what is left)."""
    START = "start"
    """Importing the bot and ``on_game_start``."""
    END = "end"
    """Answering the end-of-game message."""
    AWAY = "away"
    """A person's seat: no sign of the person for longer than allowed (the seat is
    forfeited to the autopilot; see :mod:`arena_runner.person`)."""

    @property
    def label(self) -> str:
        """The clock in words, for a report."""
        return _LABELS[self]


_LABELS = {
    TimeoutClock.DECISION: "the wall-clock limit of one decision",
    TimeoutClock.BANK: "the time bank",
    TimeoutClock.GAME: "the game's wall-clock budget",
    TimeoutClock.START: "the start-up limit",
    TimeoutClock.END: "the end-of-game limit",
    TimeoutClock.AWAY: "the time a person may be away",
}

THINK_LESS = "think less per decision (clock.decision); keep clock.bank for the odd long one"
BUDGET_BY_GAME = "budget by clock.game: spread what is left over the decisions still to come"


def decision_wall(cap: float, decision: float, bank: float) -> str:
    """No reply within one decision's wall-clock cap."""
    return (
        f"no reply within {cap:.3g} s of wall clock, the most one decision may take "
        f"(the {decision:.3g} s decision + the {bank:.3g} s left in the bank + "
        f"{WALL_SLACK:g} s): think less per decision (clock.decision); sleeping and waiting "
        "are charged like CPU"
    )


def decision_cpu(used: float, decision: float, bank: float) -> str:
    """One decision used its CPU budget and the whole bank left."""
    return (
        f"{used:.3g} s of CPU on one decision, its {decision:.3g} s and all "
        f"{bank:.3g} s left in the time bank: {THINK_LESS}"
    )


def bank_overdrawn(cpu: float, decision: float, offturn: float, wall: float = 0.0) -> str:
    """The bank went below zero once a decision's overage (and off-turn CPU) was taken;
    ``wall``: the decision's wall clock, named when it was charged rather than its CPU."""
    spent = f"{cpu:.3g} s of CPU on a {decision:.3g} s decision"
    if decision_cost(cpu, wall) > cpu:
        spent = (
            f"{wall:.3g} s of wall clock ({cpu:.3g} s of CPU; waiting is charged like CPU "
            f"beyond {WALL_SLACK:g} s) on a {decision:.3g} s decision"
        )
    if offturn > 0.0005:
        spent += f", {offturn:.3g} s of CPU off turn"
    return f"time bank exhausted ({spent}): {THINK_LESS}"


def game_spent(budget: float | None, left: float | None = None) -> str:
    """The seat's wall-clock budget for the game (``budget`` seconds, if known) is spent;
    ``left``: the seconds the last decision had when the budget cut it short."""
    whole = "the whole" if budget is None else f"the whole {budget:.3g} s"
    waited = "" if left is None else f"; the last decision had the {max(left, 0.0):.3g} s left"
    return (
        f"wall clock for the game exhausted: its decisions took {whole} wall-clock budget "
        f"for the game (sleeping counts){waited}: {BUDGET_BY_GAME}"
    )


def start_up(seconds: float, used_cpu: float | None = None) -> str:
    """Importing the bot and ``on_game_start`` took too long."""
    how = f"{used_cpu:.3g} s of CPU" if used_cpu is not None else "no reply"
    return (
        f"{how} within the {seconds:.3g} s allowed for importing the bot and "
        "on_game_start: do less at import (load data lazily, or precompute it into a file)"
    )


def end_of_game(seconds: float) -> str:
    """The end-of-game message was not answered in time."""
    return f"no answer to the end of the game within {seconds:.3g} s: return from on_game_end fast"


def person_away(seconds: float) -> str:
    """A person's seat heard nothing from its person for ``seconds``."""
    return (
        f"the person was away for more than {seconds:.3g} s: the autopilot plays the rest "
        "of the game"
    )
