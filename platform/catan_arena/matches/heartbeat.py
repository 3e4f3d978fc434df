"""A claimed match's heartbeat: while a worker plays it, a thread beside the game writes
``Match.heartbeat_at`` every ``settings.MATCH_HEARTBEAT_SECONDS``. A worker machine that
vanishes (cut off, powered down) stops beating, and the reaper re-queues its match after
``settings.MATCH_HEARTBEAT_TIMEOUT`` instead of waiting for the match's whole deadline;
a worker that comes back finds its attempt superseded and records nothing."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from types import TracebackType

from django.conf import settings
from django.db import connection
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
    """``with Heartbeat(match_id, attempt):`` has this process's beater thread beat for
    the attempt until the block ends; no beat of it lands after. A failed beat is logged
    and retried at the next interval: the heartbeat must never void a match."""

    def __init__(self, match_id: int, attempt: int, interval: float | None = None) -> None:
        self.match_id = match_id
        self.attempt = attempt
        self.interval = settings.MATCH_HEARTBEAT_SECONDS if interval is None else interval

    def __enter__(self) -> Heartbeat:
        _beater().watch(self)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        _beater().unwatch(self)


class _Beater:
    """One thread a process, started once, that beats for the attempt being played (a
    thread started and joined for every match cost the worker's thread ~0.5-2 ms a
    match). Its database connection, opened by a match's first beat, is closed when no
    attempt is watched and after a failed beat (the next one connects afresh)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._changed = threading.Condition()
        self._watched: Heartbeat | None = None
        self._beating: Heartbeat | None = None
        threading.Thread(target=self._run, name="heartbeat", daemon=True).start()

    def watch(self, heartbeat: Heartbeat) -> None:
        with self._changed:
            self._watched = heartbeat
            self._changed.notify_all()

    def unwatch(self, heartbeat: Heartbeat) -> None:
        """Stop beating for ``heartbeat``; returns once a beat of it in flight landed."""
        with self._changed:
            self._forget(heartbeat)
            while self._beating is heartbeat:
                self._changed.wait()

    def _forget(self, heartbeat: Heartbeat) -> None:
        """No more beats for ``heartbeat`` (call holding the condition)."""
        if self._watched is heartbeat:
            self._watched = None
            self._changed.notify_all()

    def _run(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                connection.close()  # idle: no connection held between matches that beat
            with self._changed:
                while self._watched is None:
                    self._changed.wait()
            self._beat_while_watched()

    def _beat_while_watched(self) -> None:
        """Beat for the watched attempt every interval until none is watched. Anything a
        beat raises is logged and its connection closed: the thread must outlive it."""
        while True:
            with self._changed:
                heartbeat = self._watched
                if heartbeat is None:
                    return
                due = time.monotonic() + heartbeat.interval
                while self._watched is heartbeat and (left := due - time.monotonic()) > 0:
                    self._changed.wait(left)
                if self._watched is not heartbeat:
                    continue
                self._beating = heartbeat
            ours = True
            try:
                ours = beat(heartbeat.match_id, heartbeat.attempt)
            except Exception:
                log.warning("match %s: heartbeat not written", heartbeat.match_id, exc_info=True)
                with contextlib.suppress(Exception):
                    connection.close()
            finally:
                with self._changed:
                    if not ours:  # no longer ours: superseded, voided, recorded
                        self._forget(heartbeat)
                    self._beating = None
                    self._changed.notify_all()


_the_beater: _Beater | None = None


def _beater() -> _Beater:
    """This process's beater (a forked child starts its own: threads do not follow)."""
    global _the_beater
    if _the_beater is None or _the_beater.pid != os.getpid():
        _the_beater = _Beater()
    return _the_beater
