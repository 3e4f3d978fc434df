"""What tournaments do when a match is done (connected in
:class:`.apps.TournamentsConfig`)."""

from __future__ import annotations

from typing import Any

from catan_arena.matches.models import Match
from catan_arena.tournaments.services import note_match_done


def tournament_progress(sender: object, match: Match, **kwargs: Any) -> None:
    """Queue a Swiss round or finish the tournament (in the result's transaction; the
    pages' standings table is computed afterwards, off the match worker:
    :mod:`catan_arena.web.receivers`)."""
    if match.tournament_id is not None:
        note_match_done(match.tournament_id)
