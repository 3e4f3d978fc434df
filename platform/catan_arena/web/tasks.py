"""Celery tasks of the site (thin: they call :mod:`.receivers`)."""

from __future__ import annotations

import logging

from celery import shared_task

from catan_arena.web.receivers import warm_pages

log = logging.getLogger(__name__)


@shared_task
def warm_pages_task(match_id: int) -> None:
    """On the quick queue after a finished match is committed: fill its pages' caches
    (a failure is logged: the pages compute what is missing on their first view)."""
    try:
        warm_pages(match_id)
    except Exception:
        log.exception("warming the pages of match %s failed", match_id)
