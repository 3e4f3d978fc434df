"""What the site does when a match is done (connected in :class:`.apps.WebConfig`): once
a finished match is committed, the caches its first spectators would otherwise fill —
the replay page's charts and ending, its tournament's standings table — are filled off
the match worker: on the quick queue in server mode (:func:`.tasks.warm_pages_task`), on
commit in the embedded default. A failure there is logged, never the recording's."""

from __future__ import annotations

import functools
from typing import Any

from django.db import transaction

from catan_arena.core import dispatch
from catan_arena.core.queues import WARM_PAGES_TASK
from catan_arena.matches.models import Match
from catan_arena.tournaments.selectors import refresh_standings_table
from catan_arena.web.replay_pages import warm


def warm_after_result(sender: object, match: Match, **kwargs: Any) -> None:
    if match.status != Match.Status.FINISHED:
        return
    if not dispatch.on_commit_quick(WARM_PAGES_TASK, match.pk):
        transaction.on_commit(functools.partial(warm_pages, match.pk), robust=True)


def warm_pages(match_id: int) -> None:
    """Fill the page caches of a finished match: its replay page and, for a tournament
    game, the tournament's standings table."""
    warm(match_id)
    tournament_id = Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True)
    found = tournament_id.first()
    if found is not None:
        refresh_standings_table(found)
