"""What the site does when a match is done (connected in :class:`.apps.WebConfig`): once
a finished match is committed, its replay page's charts and ending are computed into the
cache (a failure there is logged, never the recording's)."""

from __future__ import annotations

import functools
from typing import Any

from django.db import transaction

from catan_arena.matches.models import Match
from catan_arena.web.replay_pages import warm


def warm_replay(sender: object, match: Match, **kwargs: Any) -> None:
    if match.status == Match.Status.FINISHED:
        transaction.on_commit(functools.partial(warm, match.pk), robust=True)
