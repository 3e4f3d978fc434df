"""The suite's real ``celery worker`` (:class:`tests.support.celery_worker.CeleryWorker`)
leaves nothing running behind it: a worker that never became ready is stopped by the
constructor that gave up on it, and a worker whose starter dies, even by SIGKILL (a
killed test run or bench), shuts down instead of taking matches from the queue it
shared. Each process is found by a queue name no other worker listens to."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.support.celery_worker import ROOT, CeleryWorker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


def _running_with(marker: str) -> list[int]:
    """Live (not zombie) processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in command and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def _gone(marker: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while _running_with(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_worker_not_ready_in_time_is_stopped(server_mode: dict[str, str]) -> None:
    queue = f"harness-{uuid.uuid4().hex[:8]}"
    with pytest.raises(TimeoutError, match=r"not ready in 0\.5 s"):
        CeleryWorker(server_mode, concurrency=1, queues=queue, ready_seconds=0.5)
    assert _running_with(queue) == []


STARTER = """
import json, sys, time
from tests.support.celery_worker import CeleryWorker
worker = CeleryWorker(json.loads(sys.argv[1]), concurrency=1, queues=sys.argv[2])
print(worker.process.pid, flush=True)
time.sleep(600)
"""


def test_a_worker_whose_starter_is_killed_shuts_down(server_mode: dict[str, str]) -> None:
    queue = f"harness-{uuid.uuid4().hex[:8]}"
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER, json.dumps(server_mode), queue],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert starter.stdout is not None
        worker_pid = int(starter.stdout.readline())
        assert worker_pid in _running_with(queue)  # control: the worker ran until now
        starter.send_signal(signal.SIGKILL)
        starter.wait(10)
        assert _gone(queue, 60), _running_with(queue)
    finally:
        if starter.poll() is None:
            starter.kill()
        for pid in _running_with(queue):  # a failed run cleans up after itself
            os.kill(pid, signal.SIGKILL)
