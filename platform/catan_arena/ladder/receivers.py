"""What the ladder does when a match is done or a version becomes active (connected in
:class:`.apps.LadderConfig`): top up at once, not only on the next tick."""

from __future__ import annotations

from typing import Any

from catan_arena.ladder.services import fill_ladder_on_commit
from catan_arena.matches.models import Match


def top_up_after_match(sender: object, match: Match, **kwargs: Any) -> None:
    """A matchmaker's match done (not a tournament's ladder match): top up on commit."""
    if match.ladder and match.tournament_id is None:
        fill_ladder_on_commit()


def top_up_for_newcomer(sender: object, **kwargs: Any) -> None:
    """A newly active version wakes the ladder at once (even a settled one)."""
    fill_ladder_on_commit()
