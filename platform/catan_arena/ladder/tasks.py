"""Celery tasks of the ladder (thin: they call the services)."""

from __future__ import annotations

from celery import shared_task

from catan_arena.ladder.services import fill_ladder


@shared_task
def fill_ladder_task() -> int:
    """Periodic (beat): keep the ladder's matches in flight; returns how many were queued."""
    return len(fill_ladder())
