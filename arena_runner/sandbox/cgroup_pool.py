"""Bot cgroups kept for the next bot of one runner, rather than made and removed per bot.

Making a bot's cgroup is a directory in each hierarchy (four v1 controllers and the
unified one on a hybrid host, one on a pure v2 host) with its limits written, plus its
interpreter's child; removing it is as many ``rmdir``. That is a few ms of the worker's
own thread for every bot it starts, on the path of a game whose bots start fresh (the
next bot cannot start before its cgroup exists). A runner that releases a bot therefore
keeps its emptied cgroup and gives it to the next bot with the same limits.

A cgroup is kept only when nothing of its last bot is left in it:

- no process, in it or in its interpreter's child (its processes are killed first, as
  a removal does);
- no memory charged beyond :data:`LEFTOVER_BYTES` (a clean exit leaves ~0.1-0.5 MiB of
  kernel objects; anything a bot could leave behind in memory, such as a tmpfs file,
  dies with its namespaces before its last process leaves the cgroup, and a cgroup
  still charged for more is removed, so no bot starts with a predecessor's memory on
  its limit);
- thawed.

Its limits are the ones it was made with (a pool hands a cgroup only to a bot whose
cgroup limits and niceness are the same), and its name stays that of the worker that
made it (``catan-arena-<pid>-…``), so the janitor finds it if the worker dies. The pool
holds at most :data:`IDLE_CAP` idle cgroups; :meth:`CgroupPool.close` removes them.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from arena_runner.sandbox.cgroups import BotCgroup
from arena_runner.sandbox.limits import Limits

LEFTOVER_BYTES = 4 << 20
"""The most memory an emptied cgroup may still be charged for and be kept."""
IDLE_CAP = 8
"""Idle cgroups a pool keeps (a game's four, and four blank sandboxes')."""

Key = tuple[int, int, float, int]


def _key(limits: Limits) -> Key:
    """What a cgroup's settings depend on: its limits, and the worker's niceness (its
    CPU weight)."""
    niceness = os.getpriority(os.PRIO_PROCESS, 0)
    return (limits.memory_bytes, limits.pids, limits.cpu_quota, niceness)


class CgroupPool:
    """The idle cgroups of one runner (thread-safe: blank sandboxes start in a thread)."""

    def __init__(self) -> None:
        self._idle: list[tuple[Key, BotCgroup]] = []
        self._keys: dict[int, Key] = {}
        """The key each cgroup handed out was made for (by ``id``)."""
        self._lock = threading.Lock()
        self._closed = False

    def take(self, name: str, limits: Limits) -> BotCgroup:
        """An idle cgroup made for the same limits, else a new one named ``name``."""
        key = _key(limits)
        with self._lock:
            for index, (idle_key, group) in enumerate(self._idle):
                if idle_key == key:
                    del self._idle[index]
                    self._keys[id(group)] = key
                    return group
        group = BotCgroup.create(name, limits)
        with self._lock:
            self._keys[id(group)] = key
        return group

    def give_back(self, group: BotCgroup) -> None:
        """Empty ``group`` (its processes killed) and keep it if it is clean
        (:func:`reusable`), else remove it."""
        with self._lock:
            key = self._keys.pop(id(group), None)
        group.kill_all()
        keep = key is not None and reusable(group)
        with self._lock:
            if keep and not self._closed and len(self._idle) < IDLE_CAP:
                assert key is not None
                self._idle.append((key, group))
                return
        group.remove()

    def close(self) -> None:
        """Remove every idle cgroup; cgroups given back later are removed at once."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for _, group in idle:
            group.remove()

    def __len__(self) -> int:
        with self._lock:
            return len(self._idle)


def reusable(group: BotCgroup) -> bool:
    """True if ``group`` holds no process, at most :data:`LEFTOVER_BYTES` of memory
    charge, and is thawed (it is thawed here if it was left frozen)."""
    child = group.interpreter
    try:
        if any(_read(d / "cgroup.procs") for d in [*group.dirs.values(), child] if d):
            return False
        if memory_charge(group) > LEFTOVER_BYTES:
            return False
        if child is not None:  # frozen on its own while the bot's interpreter was in it
            (child / "cgroup.freeze").write_text("0")
        group.thaw()  # the v2 freezer or the v1 one, waited for
    except (OSError, ValueError, TimeoutError):
        return False
    return True


def memory_charge(group: BotCgroup) -> int:
    """Bytes of memory ``group`` is charged for (v2 ``memory.current``, v1
    ``memory.usage_in_bytes``); raises OSError where neither is readable."""
    directory = group.dirs.get("memory") or group.dirs[""]
    for name in ("memory.current", "memory.usage_in_bytes"):
        with contextlib.suppress(FileNotFoundError):
            return int(_read(directory / name))
    raise OSError(f"no memory usage file in {directory}")


def _read(path: Path) -> str:
    return path.read_text().strip()
