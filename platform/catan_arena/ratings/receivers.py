"""What ratings do when a match is done (connected in :class:`.apps.RatingsConfig`)."""

from __future__ import annotations

from typing import Any

from catan_arena.core import dispatch
from catan_arena.core.queues import RATE_TASK
from catan_arena.matches.models import Match
from catan_arena.ratings.services import apply_ready_ratings

RATING_BATCH_SECONDS = 1.0
"""Server mode: the ladder's ratings are applied at most this long after a result, the
matches recorded meanwhile in one go (one read of the ratings, one write each)."""


def rate_ready_matches(sender: object, match: Match, **kwargs: Any) -> None:
    """A recorded ladder match, or any match given up (it may have held ladder matches
    back), lets the ready ladder matches be rated, in creation order: in server mode by
    a task on the quick queue once the result is committed, batched (the match worker
    goes straight to its next match, and the ladder-wide lock is never taken inside a
    result's transaction); on the embedded default in the same transaction."""
    rates = match.ladder or match.status == Match.Status.FAILED
    if rates and not dispatch.on_commit_quick_batched(RATE_TASK, RATING_BATCH_SECONDS):
        apply_ready_ratings()
