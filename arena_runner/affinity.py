"""Running a match on one CPU: the runner and the bot on turn take turns on the same core.

A decision is a ping-pong between the runner and one bot process, and only one of them
runs at a time (the others are frozen). On virtual machines waking a process on another
core costs tens of microseconds each way, several times the work of a decision; on the
same core the hand-over is a plain context switch. So a match claims one CPU: the runner
pins its own thread to it for the match and pins each bot process to it.

Concurrent matches on one host (several workers) claim different CPUs through lock files
(``flock``, released by the kernel even if the process dies); when every CPU is claimed,
the match shares the CPU it is running on.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from arena_runner.env import env_path

ENV_LOCK_DIR = "CATAN_CPU_LOCK_DIR"
"""Where the CPU claims live (default: ``catan-arena-cpus`` in the temp dir); matches
that should not see each other's claims (tests) use different dirs."""


def lock_dir() -> Path:
    return env_path(ENV_LOCK_DIR, Path(tempfile.gettempdir(), "catan-arena-cpus"))


def current_cpu() -> int:
    """The CPU this thread is running on now (field 39 of ``/proc/thread-self/stat``)."""
    try:
        stat = Path("/proc/thread-self/stat").read_bytes()
        return int(stat.rsplit(b")", 1)[1].split()[36])
    except (OSError, IndexError, ValueError):
        return min(os.sched_getaffinity(0))


def _try_lock(cpu: int) -> int | None:
    """An open, exclusively locked lock file for ``cpu``, or None if another holds it."""
    directory = lock_dir()
    directory.mkdir(mode=0o777, exist_ok=True)
    fd = os.open(directory / f"cpu{cpu}.lock", os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


@contextlib.contextmanager
def claimed_cpu() -> Iterator[int | None]:
    """Pin the calling thread to one CPU for the duration, preferring one no other match
    has claimed (the current CPU first); yields it (None if affinity is not available).
    The thread's previous affinity is restored on exit."""
    try:
        allowed = os.sched_getaffinity(0)
    except OSError:
        yield None
        return
    here = current_cpu()
    order = sorted(allowed, key=lambda c: (c != here, c))
    fd, cpu = None, here if here in allowed else order[0]
    with contextlib.suppress(OSError):
        for candidate in order:
            fd = _try_lock(candidate)
            if fd is not None:
                cpu = candidate
                break
    try:
        os.sched_setaffinity(0, {cpu})
        yield cpu
    finally:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, allowed)
        if fd is not None:
            os.close(fd)


def pin_process(pid: int, cpu: int) -> None:
    """Run process ``pid`` on ``cpu`` only (until pinned elsewhere); errors are ignored
    (a process that is gone, a host that does not allow it)."""
    with contextlib.suppress(OSError):
        os.sched_setaffinity(pid, {cpu})


@contextlib.contextmanager
def sparing(cpu: int) -> Iterator[None]:
    """Keep the calling thread, and the processes it starts meanwhile (they inherit its
    affinity), off ``cpu`` for the duration where other CPUs are allowed: background
    work kept off the CPU the match is about to claim. Its affinity is restored after."""
    try:
        allowed = os.sched_getaffinity(0)
    except OSError:
        yield
        return
    others = allowed - {cpu}
    if not others or others == allowed:
        yield
        return
    try:
        os.sched_setaffinity(0, others)
    except OSError:
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, allowed)


def release_processes(pids: list[int]) -> None:
    """Let processes ``pids`` run on every CPU this thread may use (errors ignored)."""
    try:
        allowed = os.sched_getaffinity(0)
    except OSError:
        return
    for pid in pids:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(pid, allowed)
