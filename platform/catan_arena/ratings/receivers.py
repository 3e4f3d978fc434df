"""What ratings do when a match is done (connected in :class:`.apps.RatingsConfig`)."""

from __future__ import annotations

from typing import Any

from catan_arena.matches.models import Match
from catan_arena.ratings.services import apply_ready_ratings


def rate_ready_matches(sender: object, match: Match, **kwargs: Any) -> None:
    """A recorded ladder match, or any match given up (it may have held ladder matches
    back), lets the ready ladder matches be rated, in creation order."""
    if match.ladder or match.status == Match.Status.FAILED:
        apply_ready_ratings()
