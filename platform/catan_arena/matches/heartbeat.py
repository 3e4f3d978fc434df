"""A claimed match's heartbeat: while a worker plays it, a thread beside the game writes
``Match.heartbeat_at`` every ``settings.MATCH_HEARTBEAT_SECONDS``. A worker machine that
vanishes (cut off, powered down) stops beating, and the reaper re-queues its match after
``settings.MATCH_HEARTBEAT_TIMEOUT`` instead of waiting for the match's whole deadline;
a worker that comes back finds its attempt superseded and records nothing."""

from __future__ import annotations

import logging
import threading
from types import TracebackType

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from catan_arena.matches.models import Match

log = logging.getLogger(__name__)


def beat(match_id: int, attempt: int) -> bool:
    """One heartbeat, only while this attempt holds the match."""
    updated = Match.objects.filter(
        pk=match_id, status=Match.Status.RUNNING, attempts=attempt
    ).update(heartbeat_at=timezone.now())
    return updated == 1


class Heartbeat:
    """``with Heartbeat(match_id, attempt):`` beats in a thread of its own until the block
    ends (its own database connection, closed after). A failed beat is logged and
    retried at the next interval: the heartbeat must never void a match."""

    def __init__(self, match_id: int, attempt: int, interval: float | None = None) -> None:
        self.match_id = match_id
        self.attempt = attempt
        self.interval = settings.MATCH_HEARTBEAT_SECONDS if interval is None else interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"heartbeat-{match_id}", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join(30)

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                try:
                    if not beat(self.match_id, self.attempt):
                        return  # no longer ours: superseded, voided or recorded
                except DatabaseError:
                    log.warning("match %s: heartbeat not written", self.match_id, exc_info=True)
        finally:
            connection.close()
