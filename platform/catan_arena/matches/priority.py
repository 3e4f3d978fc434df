"""The priority of a process that plays matches: below the site's, so that pages are
served first on a shared host (``settings.WORKER_NICENESS``). The bots it starts inherit
it (their niceness, and their cgroup's CPU weight: a bot's own scheduling group, which
would otherwise weigh as much as the site's; see :mod:`arena_runner.sandbox.cgroups`),
and an unprivileged bot can only lower its own priority further.

A niceness orders processes within one scheduling group. On a kernel with autogroups
(``/proc/sys/kernel/sched_autogroup_enabled``; processes in the root CPU cgroup are
grouped by session), each session shares the CPU equally whatever its processes'
niceness, so a worker started as a service of its own also gives its session's group
the niceness (``/proc/self/autogroup``). In a container the cgroup's weight does that
(``cpu_shares`` in docker-compose.yml)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from django.conf import settings

AUTOGROUP = Path("/proc/self/autogroup")


def lower_worker_priority(*, session: bool = False) -> int:
    """Set this process's niceness to ``settings.WORKER_NICENESS`` unless it is already
    at least that (raising a niceness needs no privilege, lowering one does); with
    ``session`` (a worker that is a service of its own, not ``make serve``'s child beside
    the web) its session's autogroup too. Returns the niceness it runs at."""
    return lower_priority(settings.WORKER_NICENESS, session=session)


def lower_priority(level: int, *, session: bool = False) -> int:
    """:func:`lower_worker_priority` at ``level``."""
    if os.getpriority(os.PRIO_PROCESS, 0) < level:
        os.setpriority(os.PRIO_PROCESS, 0, level)
    if session:
        with contextlib.suppress(OSError, ValueError):  # no autogroups here, or refused
            if autogroup_niceness() < level:
                AUTOGROUP.write_text(str(level))
    return os.getpriority(os.PRIO_PROCESS, 0)


def autogroup_niceness(pid: int | str = "self") -> int:
    """The niceness of ``pid``'s autogroup (``/autogroup-N nice K``); OSError without
    autogroups."""
    return int(Path(f"/proc/{pid}/autogroup").read_text().split()[-1])
