"""A real ``celery worker`` process for the tests (not eager mode, not a thread): it
talks to the suite's own Redis and to the test's PostgreSQL database."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Protocol

import redis
from kombu.transport.redis import PRIORITY_STEPS, Channel

from catan_arena.embedded.workers import die_with_parent
from tests.support.services import suite_services

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 60.0


def redis_url() -> str:
    """A database of the suite's own Redis for each test worker (xdist ``gwN``), flushed
    first (every run has a Redis of its own: two runs on one machine share nothing)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    url = suite_services().redis_url(1 + int(worker.removeprefix("gw") or 0) % 15)
    redis.Redis.from_url(url).flushdb()
    return url


class CeleryWorker:
    """``celery -A catan_arena worker`` in its own process group; ``beat`` runs the
    periodic tasks in it too (``-B``)."""

    def __init__(
        self,
        env: dict[str, str],
        *,
        concurrency: int = 2,
        beat: bool = False,
        queues: str = "celery,validation",
        ready_seconds: float = READY_SECONDS,
    ) -> None:
        self.name = f"test-{uuid.uuid4().hex[:8]}@%h"
        self.log = Path(tempfile.mkstemp(prefix="celery-worker-", suffix=".log")[1])
        command = [
            sys.executable, "-m", "celery", "-A", "catan_arena", "worker",
            "--loglevel", "INFO", "--concurrency", str(concurrency), "--pool", "prefork",
            "-n", self.name, "--without-gossip", "--without-mingle", "-Q", queues,
        ]  # fmt: skip
        if beat:
            schedule = tempfile.mkdtemp(prefix="celery-beat-")
            command += ["-B", "--schedule", f"{schedule}/beat-schedule"]
        environment = env | {"DJANGO_SETTINGS_MODULE": "catan_arena.settings"}
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                # SIGTERM (a warm shutdown) when its starter dies, even by SIGKILL: a
                # killed run or bench leaves no worker playing from the queue it shared
                preexec_fn=die_with_parent,
            )
        try:
            self._wait_ready(ready_seconds)
        except BaseException:  # not left running: no caller holds it to stop it
            self.stop()
            raise

    def _wait_ready(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"celery worker exited:\n{self.output()}")
            if " ready." in self.output():
                return
            time.sleep(0.1)
        raise TimeoutError(f"celery worker not ready in {seconds} s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the worker and every process of its group (a machine lost)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """A warm shutdown (SIGTERM), then SIGKILL for whatever is left."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(30)
        self.kill()


class HasOutput(Protocol):
    def output(self) -> str: ...


def queue_keys(queue: str) -> list[str]:
    """The Redis lists the transport keeps for ``queue``, one per priority step
    (``queue``, then ``queue<sep>3`` ...), highest priority first."""
    return [f"{queue}{Channel.sep}{step}" if step else queue for step in PRIORITY_STEPS]


def queued_tasks(broker: redis.Redis, queue: str) -> list[str]:
    """The task names waiting in ``queue``, over every priority list, highest first."""
    names: list[str] = []
    for key in queue_keys(queue):
        names += [json.loads(m)["headers"]["task"] for m in broker.lrange(key, 0, -1)]
    return names


def wait_for(condition: object, seconds: float, what: str, worker: HasOutput) -> None:
    """Poll ``condition()`` until true; fail with the worker's (or serve's) log otherwise."""
    assert callable(condition)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}; worker log:\n{worker.output()[-6000:]}")


def ratings_caught_up() -> bool:
    """No finished ladder match waits for its rating: in server mode ratings are applied
    on the quick queue once a result is committed, so a test that saw a match finish
    waits for this before it reads ratings."""
    from catan_arena.ratings.selectors import awaiting_rating

    return not awaiting_rating().exists()
