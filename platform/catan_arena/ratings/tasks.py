"""Celery tasks of ratings (thin: they call the services)."""

from __future__ import annotations

from celery import shared_task

from catan_arena.ratings.services import apply_ready_ratings


@shared_task
def apply_ready_ratings_task() -> int:
    """Rate the ladder matches that are ready, in creation order (sent on the quick
    queue after each recorded ladder match, and by beat as a catch-up); how many."""
    return apply_ready_ratings()
