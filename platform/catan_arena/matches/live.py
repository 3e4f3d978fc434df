"""The live view of a running match: the worker writes the replay so far into
``Match.live`` about once a second (:class:`LiveFeed`, the ``on_step`` hook of
:func:`arena_runner.play_match`); the site draws it for spectators (public information
only, see :mod:`catan_arena.web.live`). The blob holds the seed (the board and the
steps need it to be re-simulated) and stays on the server."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import DatabaseError

from catan_arena.matches.models import Match
from engine.game import Game
from engine.replay import record

LIVE_INTERVAL = 1.0
"""Seconds between two writes of one match's live view."""
log = logging.getLogger(__name__)


class LiveFeed:
    """``on_step`` hook for one claimed attempt: rewrites the match's live replay at
    most every ``interval`` seconds. A failed write is logged and skipped: the live view
    is a courtesy and must never void a match."""

    def __init__(self, match_id: int, attempt: int, interval: float | None = None) -> None:
        self.match_id = match_id
        self.attempt = attempt
        self.interval = LIVE_INTERVAL if interval is None else interval
        self._next = time.monotonic() + self.interval

    def __call__(self, game: Game) -> None:
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + self.interval
        try:
            _write(self.match_id, self.attempt, record(game).to_dict())
        except DatabaseError:
            log.warning("match %s: live view not written", self.match_id, exc_info=True)


def _write(match_id: int, attempt: int, replay: dict[str, Any]) -> bool:
    return write_live(match_id, attempt, replay)


def write_live(match_id: int, attempt: int, replay: dict[str, Any]) -> bool:
    """Store ``replay`` as the live view, only while this attempt holds the match."""
    updated = Match.objects.filter(
        pk=match_id, status=Match.Status.RUNNING, attempts=attempt
    ).update(live=replay)
    return updated == 1
