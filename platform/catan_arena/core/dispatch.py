"""Hand work to the workers once the transaction that made it commits.

Server mode sends Celery tasks; the embedded default sends nothing: its local worker
processes pick up queued work from the database (:mod:`catan_arena.matches.embedded`).
Both end in the same service functions."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from catan_arena.core.queues import (
    FILL_LADDER_TASK,
    MATCH_QUEUE,
    PLAY_TASK,
    VALIDATE_TASK,
    VALIDATION_QUEUE,
)


def on_commit_validate(version_id: int) -> None:
    """Queue the validation of a version (server mode)."""
    if settings.EMBEDDED:
        return
    from catan_arena.celery import app

    transaction.on_commit(
        lambda: app.send_task(VALIDATE_TASK, (version_id,), queue=VALIDATION_QUEUE)
    )


HARD_AFTER_SOFT = 30
"""Seconds between a match task's soft time limit (the attempt is voided) and its hard
one (the pool process is killed): time to void and re-queue it."""


def task_limits(budget: float) -> tuple[int, int]:
    """A match task's (soft, hard) time limits for a match of ``budget`` seconds
    (:func:`catan_arena.matches.services.match_budget`)."""
    soft = math.ceil(budget)
    return soft, soft + HARD_AFTER_SOFT


def on_commit_quick(task: str, *args: Any) -> bool:
    """Server mode: send ``task`` to the quick queue once this transaction commits, so
    the worker that recorded a match goes straight to its next one. False on the
    embedded default (the caller does the work itself)."""
    if settings.EMBEDDED:
        return False
    from catan_arena.celery import app

    transaction.on_commit(lambda: app.send_task(task, args, queue=VALIDATION_QUEUE))
    return True


def on_commit_quick_batched(task: str, seconds: float) -> bool:
    """Server mode: :func:`on_commit_quick` for a task that does all the work waiting
    when it runs (rating every ready match, say), at most once per ``seconds``: the
    first call sends it to run ``seconds`` later; calls until then send nothing, the
    task sent covers their work (it starts after the mark expires, so after their
    commits). The mark is in the cache: with a process-local cache, per process."""
    if settings.EMBEDDED:
        return False
    from catan_arena.celery import app

    def send() -> None:
        try:
            first = cache.add(f"batched-task:{task}", True, timeout=seconds)
        except Exception:  # the cache unreachable (any backend's error): sent unbatched
            first = True
        if first:
            app.send_task(task, queue=VALIDATION_QUEUE, countdown=seconds)

    transaction.on_commit(send)
    return True


def on_commit_fill_ladder() -> bool:
    """Top the ladder up on the quick queue after this transaction (server mode)."""
    return on_commit_quick(FILL_LADDER_TASK)


def on_commit_play(match_id: int, budget: float, priority: int) -> None:
    """Queue a match (server mode) at ``priority`` (one of ``core.queues``' ``MATCH_*``
    levels), with soft and hard time limits from its budget."""
    if settings.EMBEDDED:
        return
    from catan_arena.celery import app

    soft, hard = task_limits(budget)
    transaction.on_commit(
        lambda: app.send_task(
            PLAY_TASK,
            (match_id,),
            queue=MATCH_QUEUE,
            priority=priority,
            soft_time_limit=soft,
            time_limit=hard,
        )
    )


BROKER_EPOCH_KEY = "catan-arena:broker-data-since"
"""A key in the broker's own Redis database holding when its data began: a Redis that
lost its data (restarted without its files, flushed) lost this key with the queued
tasks, and the first look afterwards writes a new time."""

T = TypeVar("T")


def _ask_broker(look: Callable[[Any], T]) -> T | None:
    """``look(channel)`` on one connection to the broker (kombu's channels are untyped);
    None in the embedded default or when the broker cannot be asked (down, restarting,
    or not Redis): nothing can be concluded then."""
    if settings.EMBEDDED:
        return None
    from catan_arena.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1)
            return look(conn.default_channel)
    except Exception:
        return None


def _data_since(channel: Any) -> datetime:
    """The epoch key's time, written now if the key was missing (redis-py inside)."""
    client = channel.client
    client.set(BROKER_EPOCH_KEY, repr(time.time()), nx=True)
    return datetime.fromtimestamp(float(client.get(BROKER_EPOCH_KEY)), tz=UTC)


def broker_data_since() -> datetime | None:
    """When the broker's current data began (this look's time if the key was missing):
    a task sent before then was lost with the data it replaced."""
    return _ask_broker(_data_since)


def lost_by_broker(queued_at: list[datetime], queue: str) -> list[bool]:
    """Which of the work items queued at ``queued_at`` (still waiting, each past the
    re-dispatch delay) the broker lost: those queued before its data began; every one
    when its queue holds fewer messages than there are items (a loss the epoch key did
    not see). All False when the broker cannot be asked. One connection for both looks."""
    if not queued_at:
        return []

    def look(channel: Any) -> tuple[datetime, int]:
        waiting = channel.queue_declare(queue=queue, passive=False).message_count
        return _data_since(channel), int(waiting)

    seen = _ask_broker(look)
    if seen is None:
        return [False] * len(queued_at)
    since, backlog = seen
    if backlog < len(queued_at):
        return [True] * len(queued_at)
    return [at < since for at in queued_at]
