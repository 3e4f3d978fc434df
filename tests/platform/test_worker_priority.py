"""The processes that play run below the site's priority: a Celery worker's pool
processes and the bots they keep started take ``CATAN_ARENA_WORKER_NICENESS``; the
worker's own process (it only talks to the broker) and the web keep theirs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.celery_worker import CeleryWorker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def _stat(pid: int) -> list[str]:
    """``/proc/<pid>/stat`` after the command name: [state, ppid, ...]."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text.rsplit(")", 1)[1].split()


def descendants(root: int) -> list[int]:
    """Every living process under ``root``."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(_stat(int(entry.name))[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def niceness(pid: int) -> int:
    return int(_stat(pid)[16])  # field 19 of stat: nice


def pool_and_bots(worker: CeleryWorker) -> list[int]:
    return descendants(worker.process.pid)


@pytest.mark.parametrize("level", [7, 0])
def test_the_pool_processes_and_their_blank_sandboxes_run_niced(
    server_mode: dict[str, str], workers: list[Any], level: int
) -> None:
    worker = CeleryWorker(server_mode | {"CATAN_ARENA_WORKER_NICENESS": str(level)}, concurrency=1)
    workers.append(worker)
    # the pool process, its blank sandboxes (bwrap and the bot runtime inside) started ahead
    wait_for(lambda: len(pool_and_bots(worker)) >= 3, 60, "the blank sandboxes", worker)
    below = pool_and_bots(worker)
    assert niceness(worker.process.pid) == os.getpriority(os.PRIO_PROCESS, 0)
    assert {niceness(pid) for pid in below} == {level}, [(p, niceness(p)) for p in below]
