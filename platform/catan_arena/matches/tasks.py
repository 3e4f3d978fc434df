"""Celery tasks of matches (thin: they call the services).

``acks_late`` with ``reject_on_worker_lost``: a match whose worker process dies goes
back to the queue; the claim in the database makes a second delivery a no-op."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_process_init, worker_process_shutdown
from django.conf import settings
from django.db import InterfaceError, OperationalError

from catan_arena.core.worker_db import close_connections
from catan_arena.matches.play import close_worker_runner, worker_runner
from catan_arena.matches.priority import lower_worker_priority
from catan_arena.matches.services import redispatch_lost_matches, requeue_stuck_matches, run_match
from catan_arena.submissions.services import (
    redispatch_lost_validations,
    requeue_stuck_validations,
)

STUCK_VALIDATION_SECONDS = 900.0
log = logging.getLogger(__name__)


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=8,
)
def play_match_task(match_id: int) -> str | None:
    """Play one match (its soft/hard time limits are set when it is queued). The
    database unreachable (a PostgreSQL restart): tried again with backoff; the claim
    makes a retry of a match already taken a no-op."""
    try:
        return run_match(match_id)
    except SoftTimeLimitExceeded:
        # run_match voids the attempt on any exception raised while playing; one raised
        # elsewhere leaves the match running until the reaper re-queues it. The limit's
        # signal may have cut a query short: the connection is not kept.
        close_connections()
        return None


@shared_task
def requeue_stuck_matches_task() -> int:
    """Periodic (beat): re-queue matches and validations whose worker was lost, and
    those the broker lost."""
    stuck = requeue_stuck_matches()
    requeue_stuck_validations(STUCK_VALIDATION_SECONDS)
    lost = redispatch_lost_matches()
    redispatch_lost_validations(settings.REDISPATCH_SECONDS)
    return len(stuck) + len(lost)


@worker_process_init.connect
def _start_runner(**_: Any) -> None:
    """A new pool process lowers its priority (and its worker's session's) below the
    site's, then starts its blank sandboxes (and cleans up after dead runners) now, not
    during its first match."""
    lower_worker_priority(session=True)
    try:
        worker_runner()
    except Exception:  # the first match reports it as a platform fault
        log.exception("could not start this worker's bot runner")


@worker_process_shutdown.connect
def _close_runner(**_: Any) -> None:
    """A pool process that exits kills the blank sandboxes it kept started."""
    close_worker_runner()
