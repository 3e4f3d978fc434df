"""What tournaments do when a match is done (connected in
:class:`.apps.TournamentsConfig`)."""

from __future__ import annotations

import functools
from typing import Any

from django.db import transaction

from catan_arena.matches.models import Match
from catan_arena.tournaments.selectors import refresh_standings_table
from catan_arena.tournaments.services import note_match_done


def tournament_progress(sender: object, match: Match, **kwargs: Any) -> None:
    """Queue a Swiss round or finish the tournament (in the result's transaction); once
    a finished game is committed, compute its new standings table for the pages (a
    failure there is logged, never the recording's)."""
    if match.tournament_id is None:
        return
    note_match_done(match.tournament_id)
    if match.status == Match.Status.FINISHED:
        refresh = functools.partial(refresh_standings_table, match.tournament_id)
        transaction.on_commit(refresh, robust=True)
