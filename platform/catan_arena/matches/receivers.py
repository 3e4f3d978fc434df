"""What matches do when one is done (connected in :class:`.apps.MatchesConfig`, first of
the receivers): count a finished one into the pages' tallies, in its transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.tallies import count_result


def tally_result(
    sender: object, match: Match, seats: Sequence[MatchSeat] | None = None, **kwargs: Any
) -> None:
    count_result(match, seats)
