"""The priority of a process that plays matches: below the site's, so that pages are
served first on a shared host (``settings.WORKER_NICENESS``). The bots it starts inherit
it, and an unprivileged bot can only lower its own priority further."""

from __future__ import annotations

import os

from django.conf import settings


def lower_worker_priority() -> int:
    """Set this process's niceness to ``settings.WORKER_NICENESS`` unless it is already
    at least that (raising a niceness needs no privilege, lowering one does); returns the
    niceness it runs at."""
    current = os.getpriority(os.PRIO_PROCESS, 0)
    if current < settings.WORKER_NICENESS:
        os.setpriority(os.PRIO_PROCESS, 0, settings.WORKER_NICENESS)
    return os.getpriority(os.PRIO_PROCESS, 0)
