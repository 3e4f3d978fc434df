"""A real ``celery worker`` keeps its PostgreSQL connection from one match to the next
(``catan_arena.core.worker_db``): Celery's Django fixup would otherwise close it around
every task, and each match would fork a new server backend. The control: with
``CATAN_ARENA_DB_REUSE_TASKS=0`` (Celery's own behaviour) no connection of the worker
outlives its task."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from django.db import connection

from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match
from catan_arena.submissions.models import BotVersion
from tests.support.celery_worker import CeleryWorker, wait_for
from tests.support.records import FAST

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def _other_backends() -> list[datetime]:
    """When each client connection to this database, other than this test's, began."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT backend_start FROM pg_stat_activity WHERE datname = current_database()"
            " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


def _play(bots: list[BotVersion], worker: CeleryWorker) -> Match:
    match = create_match(bots, limits=FAST)
    wait_for(lambda: Match.objects.get(pk=match.pk).status == "finished", 120, "the match", worker)
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize("reuse", ["1000", "0"])
def test_a_worker_keeps_its_database_connection_between_matches(
    three_authors_bots: list[BotVersion],
    server_mode: dict[str, str],
    workers: list[Any],
    reuse: str,
) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT now()")
        (worker_started,) = cursor.fetchone()
    worker = CeleryWorker(server_mode | {"CATAN_ARENA_DB_REUSE_TASKS": reuse}, concurrency=1)
    workers.append(worker)
    first = _play(three_authors_bots, worker)
    second = _play(three_authors_bots, worker)
    assert first.started_at is not None and second.started_at is not None
    # a connection of the worker's (begun after it started: not one an earlier test of
    # this process left open) that began before the second match and is still open
    kept = [b for b in _other_backends() if worker_started <= b < second.started_at]
    if reuse == "0":
        assert kept == []  # the control: each task's connection closed after it
    else:
        assert len(kept) == 1, _other_backends()


def test_a_task_that_did_not_succeed_leaves_no_connection_behind() -> None:
    """A failed task's connection may be in any state (a query cut short): closed; a
    successful one's is kept."""
    from catan_arena.core import worker_db

    connection.ensure_connection()
    worker_db._close_after_failure(state="SUCCESS")
    assert connection.connection is not None
    worker_db._close_after_failure(state="FAILURE")
    assert connection.connection is None
