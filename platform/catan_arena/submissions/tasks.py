"""Celery tasks of submissions (thin: they call the services)."""

from __future__ import annotations

from celery import shared_task

from catan_arena.submissions.services import ValidationUnavailable, validate_version


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(ValidationUnavailable,),
    retry_backoff=30,
    max_retries=5,
)
def validate_version_task(version_id: int) -> str | None:
    """Validate one uploaded version in the sandbox."""
    return validate_version(version_id)
