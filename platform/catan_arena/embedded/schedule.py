"""The scheduler's periodic work on the embedded default: the very tasks and intervals
of Celery beat's schedule (``settings.CELERY_BEAT_SCHEDULE``: ladder top-ups,
tournament starts, the reaper), called in the supervisor's process instead of sent to
a broker."""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)


@dataclass
class Periodic:
    name: str
    run: Callable[[], object]
    every: float
    due: float = 0.0
    """``time.monotonic()`` of its next run (0: at once)."""


def beat_schedule() -> list[Periodic]:
    """Beat's schedule as callables: each task's own function, run in this process."""
    entries = []
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        module, _, function = str(entry["task"]).rpartition(".")
        task = getattr(importlib.import_module(module), function)
        every = entry["schedule"]
        assert isinstance(every, int | float), f"{name}: a schedule in seconds"
        entries.append(Periodic(name, task.run, float(every)))
    return entries


def run_due(entries: list[Periodic], now: float | None = None) -> list[str]:
    """Run every entry that is due (a failure is logged: the next tick tries again);
    returns the names run."""
    now = time.monotonic() if now is None else now
    ran = []
    for entry in entries:
        if entry.due > now:
            continue
        entry.due = now + entry.every
        close_old_connections()
        try:
            entry.run()
        except Exception:
            log.exception("periodic %s failed; it runs again in %g s", entry.name, entry.every)
        ran.append(entry.name)
    return ran
