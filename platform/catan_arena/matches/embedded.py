"""The embedded default's workers: local processes (one per core) that play queued
matches through :func:`.services.run_match`, the very function the Celery task calls.
Bots still run each in its own sandboxed process, started by these workers."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed

from catan_arena.matches import local_worker
from catan_arena.matches.models import Match

Report = Callable[[int, str | None, BaseException | None], None]
"""Called in the parent as each match returns: its id, its status, or the error."""


def default_processes() -> int:
    return max(1, len(os.sched_getaffinity(0)))


def run_embedded(match_ids: Sequence[int], processes: int, report: Report) -> None:
    """Play ``match_ids`` on ``processes`` local workers until none is left queued
    (an attempt voided by a platform fault is queued again, a bounded number of times)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(processes, mp_context=context, initializer=local_worker.setup) as pool:
        remaining = list(match_ids)
        while remaining:
            futures: dict[Future[str | None], int] = {
                pool.submit(local_worker.play, pk): pk for pk in remaining
            }
            for future in as_completed(futures):
                error = future.exception()
                report(futures[future], None if error else future.result(), error)
            remaining = list(
                Match.objects.filter(pk__in=match_ids, status=Match.Status.QUEUED)
                .order_by("id")
                .values_list("pk", flat=True)
            )
