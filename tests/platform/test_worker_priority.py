"""The processes that play run below the site's priority: a Celery worker's pool
processes and the bots they keep started take ``CATAN_ARENA_WORKER_NICENESS``, and so
does the worker's session's autogroup (where the kernel groups sessions, a niceness
alone orders nothing against the web's session); the worker's own process (it only talks
to the broker) keeps its own. (``make serve``'s local workers: ``test_serve.py``.)"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from arena_runner.sandbox.cgroups import ROOT, usable_version, weight_of_niceness
from catan_arena.matches.priority import AUTOGROUP, autogroup_niceness
from tests.support.celery_worker import CeleryWorker, wait_for
from tests.support.serve_tree import niceness, nicenesses, process_tree

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


@pytest.mark.parametrize("level", [7, 0])
def test_the_pool_processes_and_their_blank_sandboxes_run_niced(
    server_mode: dict[str, str], workers: list[Any], level: int
) -> None:
    worker = CeleryWorker(server_mode | {"CATAN_ARENA_WORKER_NICENESS": str(level)}, concurrency=1)
    workers.append(worker)
    root = worker.process.pid

    def below() -> list[int]:  # the pool process and its blank sandboxes started ahead
        return [pid for pid in process_tree(root) if pid != root]

    wait_for(lambda: len(below()) >= 3, 60, "the blank sandboxes", worker)
    base = os.getpriority(os.PRIO_PROCESS, 0)  # inherited; a niceness is never lowered
    assert niceness(root) == base
    expected = max(level, base)
    found = nicenesses(below())
    assert found and set(found.values()) == {expected}, found
    if AUTOGROUP.exists():  # this machine's kernel, and CI's, group by session
        assert autogroup_niceness(root) >= level  # a new session's group starts at 0
    # a bot's cgroup is a scheduling group of its own: it weighs as its worker does (at
    # the default weight it outweighed the worker; level 0 is the control: the default)
    if usable_version() is not None:

        def weights() -> dict[int, int]:
            return {pid: w for pid in below() if (w := _cgroup_cpu_weight(pid)) is not None}

        wait_for(lambda: len(weights()) >= 3, 60, "the blank sandboxes in their cgroups", worker)
        assert set(weights().values()) == {weight_of_niceness(expected)}, weights()


def _cgroup_cpu_weight(pid: int) -> int | None:
    """The CPU weight of ``pid``'s own cgroup as v1's ``cpu.shares`` counts (v2's
    ``cpu.weight.nice`` converted); None in the root group or without cgroups."""
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if path == "/":
            continue
        if "cpu" in controllers.split(","):
            return int((ROOT / controllers / path.lstrip("/") / "cpu.shares").read_text())
        if controllers == "" and (ROOT / "cgroup.controllers").exists():
            nice = (ROOT / path.lstrip("/") / "cpu.weight.nice").read_text()
            return weight_of_niceness(int(nice))
    return None
