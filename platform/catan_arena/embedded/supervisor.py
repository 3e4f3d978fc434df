"""``manage.py serve``'s process tree on the embedded default: the web server
(gunicorn), match workers, validation workers, and the scheduler's periodic work run in
this supervising process. One tree, one data folder; Ctrl-C (or SIGTERM) stops every
child, and a tree killed outright is recovered at the next start."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import FrameType

from django.conf import settings

from catan_arena.embedded import workers
from catan_arena.embedded.guards import DataFolderLock, ServeRefused, check_port_free
from catan_arena.embedded.schedule import beat_schedule, run_due

log = logging.getLogger(__name__)

TICK_SECONDS = 0.5
STOP_GRACE_SECONDS = 20.0
"""How long children get to put their work back and exit before SIGKILL."""
WEB_READY_SECONDS = 60.0
RESTARTS_PER_MINUTE = 5
"""A worker that dies more often than this is left dead (and the console says so)."""


def default_match_workers() -> int:
    """One match worker per core but one (left for the web, the validation worker and
    the scheduler), at least one."""
    return max(1, len(os.sched_getaffinity(0)) - 1)


@dataclass(frozen=True)
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    match_workers: int = field(default_factory=default_match_workers)
    validation_workers: int = 1
    web_workers: int = 2


@dataclass
class Child:
    """A worker process the supervisor keeps alive."""

    name: str
    target: Callable[[], None]
    process: BaseProcess | None = None
    starts: list[float] = field(default_factory=list)

    def start(self) -> None:
        self.process = multiprocessing.get_context("spawn").Process(
            target=self.target, name=self.name, daemon=False
        )
        self.process.start()
        self.starts = [t for t in self.starts if t > time.monotonic() - 60] + [time.monotonic()]

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.is_alive()


class Supervisor:
    def __init__(self, options: ServeOptions, say: Callable[[str], None]) -> None:
        self.options = options
        self.say = say
        self.stopping = False
        self.web: subprocess.Popen[bytes] | None = None
        self.children = [
            Child(f"match-worker-{n}", workers.match_worker)
            for n in range(1, options.match_workers + 1)
        ] + [
            Child(f"validation-worker-{n}", workers.validation_worker)
            for n in range(1, options.validation_workers + 1)
        ]

    def run(self) -> int:
        """Start everything, keep it running until a stop signal; 0 on a clean stop."""
        lock = DataFolderLock(settings.DATA_DIR)
        lock.acquire()
        try:
            check_port_free(self.options.host, self.options.port)
            self._recover()
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, self._on_stop)
            self.web = self._start_web()
            for child in self.children:
                child.start()
            self._wait_for_web()
            self._announce()
            return self._watch()
        finally:
            self._stop_all()
            lock.release()

    def _on_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True

    def _recover(self) -> None:
        """Work a killed tree left in hand goes back to the queue (uncounted)."""
        from catan_arena.matches.services import release_matches_of_dead_workers
        from catan_arena.submissions.services import requeue_stuck_validations

        matches = release_matches_of_dead_workers()
        versions = requeue_stuck_validations(0.0)
        if matches or versions:
            self.say(
                f"carrying on: {len(matches)} match(es) and {len(versions)} validation(s) "
                "left unfinished by an earlier run are queued again"
            )

    def _start_web(self) -> subprocess.Popen[bytes]:
        platform_dir = settings.BASE_DIR / "platform"
        Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)  # whitenoise looks there
        command = [
            sys.executable, "-m", "gunicorn", "catan_arena.wsgi",
            "--pythonpath", str(platform_dir),
            "--bind", f"{self.options.host}:{self.options.port}",
            "--workers", str(self.options.web_workers), "--threads", "4",
            "--timeout", "60", "--graceful-timeout", "5", "--keep-alive", "5",
            "--log-level", "warning",
        ]  # fmt: skip
        return subprocess.Popen(command, cwd=settings.BASE_DIR, preexec_fn=_web_dies_with_us)

    def _wait_for_web(self) -> None:
        """Announce the address only once it answers."""
        deadline = time.monotonic() + WEB_READY_SECONDS
        while time.monotonic() < deadline and not self.stopping:
            if self.web is not None and self.web.poll() is not None:
                raise ServeRefused(f"the web server did not start (exit {self.web.returncode})")
            try:
                socket.create_connection((self.options.host, self.options.port), 0.5).close()
                return
            except OSError:
                time.sleep(0.1)

    def _announce(self) -> None:
        url = f"http://{self.options.host}:{self.options.port}/"
        self.say(
            f"Catan Arena is running at {url} (embedded default: SQLite in "
            f"{settings.DATA_DIR}, no broker): {self.options.match_workers} match worker(s), "
            f"{self.options.validation_workers} validation worker(s) and the scheduler "
            "(ladder, tournaments, reaper); every bot in its own sandbox. Ctrl-C stops it."
        )

    def _watch(self) -> int:
        schedule = beat_schedule()
        while not self.stopping:
            run_due(schedule)
            if self.web is not None and self.web.poll() is not None:
                self.say(f"the web server stopped (exit {self.web.returncode}): stopping")
                return 1
            for child in self.children:
                if child.alive or self.stopping:
                    continue
                if len(child.starts) >= RESTARTS_PER_MINUTE:
                    continue  # said once below, when it reached the limit
                code = child.process.exitcode if child.process else None
                self.say(f"{child.name} stopped (exit {code}): starting it again")
                child.start()
                if len(child.starts) >= RESTARTS_PER_MINUTE:
                    self.say(f"{child.name} keeps dying: left stopped (see the log above)")
            time.sleep(TICK_SECONDS)
        self.say("stopping: work in hand goes back to the queue")
        return 0

    def _stop_all(self) -> None:
        """SIGTERM to every child, then SIGKILL to whatever is left after the grace."""
        for child in self.children:
            if child.process is not None and child.process.is_alive():
                child.process.terminate()
        if self.web is not None and self.web.poll() is None:
            self.web.terminate()
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for child in self.children:
            if child.process is not None:
                child.process.join(max(0.0, deadline - time.monotonic()))
                if child.process.is_alive():
                    child.process.kill()
                    child.process.join(5)
        if self.web is not None:
            try:
                self.web.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.web.kill()
                self.web.wait(5)


def _web_dies_with_us() -> None:
    workers.die_with_parent(signal.SIGTERM)


def serve(options: ServeOptions, say: Callable[[str], None]) -> int:
    """Run the platform until stopped; ``ServeRefused`` (one line) when it cannot start."""
    return Supervisor(options, say).run()


__all__ = ["ServeOptions", "ServeRefused", "default_match_workers", "serve"]
