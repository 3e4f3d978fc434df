"""Celery tasks of A/B tests (thin: they call the services)."""

from __future__ import annotations

from celery import shared_task

from catan_arena.abtests.services import resume_waiting_ab_tests


@shared_task
def resume_waiting_ab_tests_task() -> list[int]:
    """Periodic (beat): tests whose pairs waited for room queue them once there is room."""
    return resume_waiting_ab_tests()
