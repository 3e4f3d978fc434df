"""``manage.py serve`` as a real process tree for the tests: the embedded default (no
environment but a data folder of its own), its output in a file, its descendants (web,
workers, bots) read from ``/proc``."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.support.celery_worker import wait_for

__all__ = [
    "ServeTree", "embedded_env", "free_port", "manage", "on_embedded_default", "still_alive",
    "wait_for",
]  # fmt: skip

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 90.0


def embedded_env(data: Path, **extra: str) -> dict[str, str]:
    """This process's environment without any platform setting: the embedded default
    (nothing of the suite's own PostgreSQL and Redis either)."""
    platform = ("DATABASE_URL", "CACHE_URL", "EMAIL_URL", "CELERY_", "DJANGO_", "CATAN_ARENA_")
    env = {k: v for k, v in os.environ.items() if not k.startswith((*platform, "CATAN_TEST_"))}
    return env | {"CATAN_ARENA_DATA": str(data), "COLUMNS": "160"} | extra


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def manage(data: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=embedded_env(data, **extra),
        capture_output=True,
        text=True,
        timeout=300,
    )


def on_embedded_default(data: Path, module: str, function: str) -> Any:
    """What ``module.function()`` returns (JSON-ready) when it runs in ``manage.py shell``
    on the embedded default's SQLite, freshly migrated in ``data``."""
    migrated = manage(data, "migrate", "--verbosity", "0")
    assert migrated.returncode == 0, migrated.stderr
    code = f"import json; from {module} import {function}; print(json.dumps({function}()))"
    run = manage(data, "shell", "-c", code)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def process_tree(root: int) -> dict[int, str]:
    """``pid → start time`` of ``root`` and every live descendant (start times tell a
    reused pid apart)."""
    parents: dict[int, int] = {}
    starts: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if fields[0] in ("Z", "X"):
                continue
            parents[int(entry.name)] = int(fields[1])
            starts[int(entry.name)] = fields[19]
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in tree:
                tree.add(pid)
                frontier.append(pid)
    return {pid: starts[pid] for pid in tree if pid in starts}


def niceness(pid: int) -> int:
    """The process's niceness (field 19 of ``/proc/<pid>/stat``)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2 :].split()[16])


def nicenesses(pids: Iterable[int]) -> dict[int, int]:
    """Each of ``pids``' niceness, leaving out those that exited meanwhile (a sandbox's
    short-lived launcher: listed, then gone before its ``stat`` is read)."""
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            found[pid] = niceness(pid)
    return found


def still_alive(pids: dict[int, str]) -> list[int]:
    """Those of ``pids`` still running (same pid, same start time, not a zombie)."""
    alive = []
    for pid, start in pids.items():
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if fields[0] not in ("Z", "X") and fields[19] == start:
                alive.append(pid)
    return alive


class ServeTree:
    """``manage.py serve --port PORT`` in a session of its own (like a terminal's job)."""

    def __init__(
        self, data: Path, port: int | None = None, *args: str, make: bool = False, **extra: str
    ) -> None:
        """``make``: exactly the README's ``make serve PORT=N`` (no other arguments)."""
        self.data = data
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = Path(tempfile.mkstemp(prefix="serve-", suffix=".log")[1])
        command = [sys.executable, "manage.py", "serve", "--port", str(self.port), *args]
        if make:
            command = ["make", "--no-print-directory", "serve", f"PORT={self.port}"]
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=embedded_env(data, **extra),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_ready(self) -> ServeTree:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited {self.process.returncode}:\n{self.output()}")
            if "is running at" in self.output():
                return self
            time.sleep(0.1)
        raise TimeoutError(f"serve not ready in {READY_SECONDS} s:\n{self.output()}")

    def tree(self) -> dict[int, str]:
        return process_tree(self.process.pid)

    def interrupt(self, timeout: float = 60.0) -> int:
        """Ctrl-C as a terminal sends it: SIGINT to the whole foreground process group."""
        os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout)

    def kill_tree(self) -> None:
        """``kill -9`` of every process of the tree at once (bots included)."""
        pids = self.tree()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """Clean-up after a test: whatever is left of the tree, killed."""
        if self.process.poll() is None:
            self.kill_tree()
        for pid in still_alive(self.tree()):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
