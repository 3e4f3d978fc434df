"""A Celery worker's database connection, kept between tasks as ``DATABASES`` asks.

Celery's Django fixup closes every connection before and after each task unless
``CELERY_DB_REUSE_MAX`` is set (then once in that many tasks): each match then opened a
new PostgreSQL connection, which forks a server backend whose caches start cold (the
claim of a match took ~9 ms in a worker against ~2 ms on a kept connection). With the
setting, the connection is kept and these handlers do what Django does around a
request: before a task, :func:`~django.db.close_old_connections` (closes one that failed
or outlived ``CONN_MAX_AGE``, and has the next query check it first: a restarted server
costs one reconnect); after a task that did not succeed, the connection is closed
outright, since an interrupted query (a time limit's signal) can leave it unusable while
it looks usable (celery/celery#9824)."""

from __future__ import annotations

from typing import Any

from celery import states
from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections, connections


@task_prerun.connect
def _check_before_task(**_: Any) -> None:
    close_old_connections()


@task_postrun.connect
def _close_after_failure(state: str | None = None, **_: Any) -> None:
    if state != states.SUCCESS:
        close_connections()


def close_connections() -> None:
    """Close every database connection of this process (a task cut short: its
    connection's state is unknown)."""
    connections.close_all()
