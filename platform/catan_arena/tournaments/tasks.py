"""Celery tasks of tournaments (thin: they call the services)."""

from __future__ import annotations

from celery import shared_task

from catan_arena.tournaments.services import start_due_tournaments


@shared_task
def start_due_tournaments_task() -> list[int]:
    """Periodic (beat): start the tournaments whose start time has passed."""
    return start_due_tournaments()
