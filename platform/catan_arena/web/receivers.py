"""What the site does when a match is done (connected in :class:`.apps.WebConfig`): once
a finished match is committed, the caches its first spectators would otherwise fill —
the replay page's charts and ending, its tournament's standings table — are filled off
the match worker: on the quick queue in server mode (:func:`.tasks.warm_pages_task`), on
commit in the embedded default. A failure there is logged, never the recording's.

Only where it pays (:func:`worth_warming`): a cache the web shares with the workers, and
a match someone is waiting for — a tournament's, an A/B test's, a person's, or a ladder
match followed live. The ladder's other matches (most of them, ~20 ms of CPU each for a
page few open) are drawn on their first visit."""

from __future__ import annotations

import functools
from typing import Any

from django.db import transaction

from catan_arena.core import dispatch
from catan_arena.core.caching import cache_is_shared
from catan_arena.core.queues import WARM_PAGES_TASK
from catan_arena.matches.models import Match
from catan_arena.tournaments.selectors import refresh_standings_table
from catan_arena.web.live import was_followed
from catan_arena.web.replay_pages import warm


def warm_after_result(sender: object, match: Match, **kwargs: Any) -> None:
    if match.status != Match.Status.FINISHED or not worth_warming(match):
        return
    if not dispatch.on_commit_quick(WARM_PAGES_TASK, match.pk):
        transaction.on_commit(functools.partial(warm_pages, match.pk), robust=True)


def worth_warming(match: Match) -> bool:
    """Whether a finished match's pages are warmed (see the module's note)."""
    if not cache_is_shared():
        return False  # the web would never see what a worker put in its own memory
    plain_ladder = match.ladder and match.tournament_id is None
    return not plain_ladder or was_followed(match.pk)


def warm_pages(match_id: int) -> None:
    """Fill the page caches of a finished match: its replay page and, for a tournament
    game, the tournament's standings table."""
    warm(match_id)
    tournament_id = Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True)
    found = tournament_id.first()
    if found is not None:
        refresh_standings_table(found)
