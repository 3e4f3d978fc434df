"""Every limit an organizer or an author sets, defined once: its default and its bounds.

The clock (per decision, bank, the game's wall-clock budget) is
:mod:`arena_runner.clock_limits`'s, re-exported here with the platform's own numbers:
a tournament's counts and the size of an A/B test. The services check what they are
given with these (:meth:`.matches.services.MatchLimits.problem`,
:func:`tournament_problem`, :func:`ab_pairs_problem`); the API's serializers, the site's
forms, the admin and the commands take their bounds and defaults from here, so every way
in accepts and refuses the same values.
"""

from __future__ import annotations

from django.conf import settings

from arena_runner.clock_limits import (
    DECISION_BOUND,
    GAME_SECONDS_BOUND,
    TIME_BANK_BOUND,
    Bound,
    clock_problem,
)
from engine.config import PLAYER_COUNTS

__all__ = [
    "AB_PAIRS_DEFAULT",
    "DECISION_BOUND",
    "GAME_SECONDS_BOUND",
    "TABLE_SIZES",
    "TIME_BANK_BOUND",
    "TOURNAMENT_BOUNDS",
    "Bound",
    "ab_pairs_bound",
    "ab_pairs_problem",
    "clock_problem",
    "table_size_problem",
    "tournament_problem",
]

TABLE_SIZES = PLAYER_COUNTS
"""Seats at a table of a tournament, an A/B test or the ladder: a game's players."""


def table_size_problem(size: int) -> str | None:
    """Why a table may not seat ``size``, or None."""
    return None if size in TABLE_SIZES else "tables seat 3 or 4"


TOURNAMENT_BOUNDS: dict[str, Bound[int]] = {
    "cycles": Bound(1, 20),
    "rounds": Bound(1, 50),
    "games_per_table": Bound(1, 4),
    "entries_per_author": Bound(1, 10),
    "max_entries": Bound(3, 10_000),
}
"""Each whole-number setting of a tournament (the columns hold more)."""

AB_PAIRS_DEFAULT = 200
"""Pairs an A/B test plays at most unless its author asks for fewer (or more, up to
``CATAN_ARENA_AB_MAX_PAIRS``)."""


def ab_pairs_bound() -> Bound[int]:
    """How many pairs an A/B test may be asked to play (the top is the server's
    ``CATAN_ARENA_AB_MAX_PAIRS``)."""
    return Bound(2, settings.AB_MAX_PAIRS)


def ab_pairs_problem(pairs: int) -> str | None:
    """Why an A/B test may not play ``pairs`` pairs, or None."""
    bound = ab_pairs_bound()
    if pairs < bound.low:
        return f"an A/B test plays at least {bound.low} pairs"
    if pairs > bound.high:
        return f"an A/B test plays at most {bound.high} pairs"
    return None


def tournament_problem(values: dict[str, int | None]) -> str | None:
    """The first of a tournament's whole-number settings out of bounds, in words, or
    None (a setting left None is not checked: it means "as many as needed")."""
    for name, bound in TOURNAMENT_BOUNDS.items():
        value = values.get(name)
        if value is not None:
            problem = bound.problem(name.replace("_", " "), value)
            if problem is not None:
                return problem
    return None
