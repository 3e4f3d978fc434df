"""One cgroup per bot (v1 or v2): memory, pids, CPU quota and weight, freezer; and the
janitor.

A bot's cgroup weighs on the CPU as its starter does (:func:`weight_of_niceness` of the
starting process's niceness): a task group is scheduled by its own weight, not by its
tasks' niceness, so a bot's group left at the default would outweigh a worker that
lowered its priority below the site's (its start-up then took the CPU from the worker's
own game: ladder matches 0.887 of the bare runner's rate, 0.967 with equal weights).

Cgroups are named ``catan-arena-<worker pid>-<name>`` and created under the worker's own
cgroup of each controller. Freezing uses the cgroup v2 freezer (``cgroup.freeze``) —
on a pure v2 host, and on a hybrid v1 host in its unified hierarchy
(``/sys/fs/cgroup/unified``), which holds no controllers but freezes all the same: a
frozen task stays frozen whatever signal it gets (a SIGCONT it arranged for itself
included), and a write to an open ``cgroup.freeze`` costs a few microseconds. The v1
freezer (~150 µs a freeze) is used only where no unified hierarchy is writable. Without a
writable hierarchy, :class:`BotControl` freezes with SIGSTOP/SIGCONT instead.
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from arena_runner.sandbox.limits import Limits

ROOT = Path("/sys/fs/cgroup")
UNIFIED = ROOT / "unified"
"""Where a hybrid host mounts its cgroup v2 hierarchy (controllers stay on v1)."""
PREFIX = "catan-arena-"
V1_CONTROLLERS = ("memory", "pids", "cpu", "freezer")
V2_CONTROLLERS = ("memory", "pids", "cpu")
INTERPRETER = "interpreter"
"""The child cgroup holding a bot's interpreter alone (see :attr:`BotCgroup.interpreter`)."""
_PERIOD_US = 100_000


def version() -> str | None:
    """``"v2"`` (unified), ``"v1"`` (legacy or hybrid with v1 controllers), or None."""
    if (ROOT / "cgroup.controllers").exists():
        return "v2"
    if all((ROOT / c).is_dir() for c in V1_CONTROLLERS):
        return "v1"
    return None


def _own_paths() -> dict[str, str]:
    """Controller -> this process's cgroup path ("" is the v2 hierarchy)."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path.lstrip("/")
    return paths


def _bases() -> dict[str, Path]:
    """Controller -> the directory under which this worker creates bot cgroups."""
    own = _own_paths()
    if version() == "v2":
        return {"": ROOT / own.get("", "")}
    bases = {c: ROOT / c / own.get(c, "") for c in V1_CONTROLLERS}
    if (UNIFIED / "cgroup.procs").exists():
        bases["unified"] = UNIFIED / own.get("", "")
    return bases


_NICE_WEIGHTS = (
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
    9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
    1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
    110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
)  # fmt: skip
"""The kernel's ``sched_prio_to_weight``: niceness -20 to 19."""


def weight_of_niceness(niceness: int) -> int:
    """The scheduler's weight of a niceness (1024 at 0), as v1's ``cpu.shares`` takes it."""
    return _NICE_WEIGHTS[min(max(niceness, -20), 19) + 20]


def _write(path: Path, value: str) -> None:
    path.write_text(value)


def _enable_v2_controllers(base: Path) -> None:
    wanted = " ".join(f"+{c}" for c in V2_CONTROLLERS)
    try:
        _write(base / "cgroup.subtree_control", wanted)
    except OSError:
        # "no internal processes": move the worker into a leaf, then delegate
        leaf = base / f"{PREFIX}worker-{os.getpid()}"
        leaf.mkdir(exist_ok=True)
        _write(leaf / "cgroup.procs", str(os.getpid()))
        _write(base / "cgroup.subtree_control", wanted)


@dataclass
class BotCgroup:
    """The cgroup directories of one bot (one per v1 controller, or one v2 directory)."""

    version: str
    dirs: dict[str, Path]

    @classmethod
    def create(cls, name: str, limits: Limits) -> BotCgroup:
        """Create ``catan-arena-<pid>-<name>`` with the limits applied; OSError if not allowed."""
        kind = version()
        if kind is None:
            raise OSError("no cgroup hierarchy found")
        leaf = f"{PREFIX}{os.getpid()}-{name}"
        bases = _bases()
        if kind == "v2":
            _enable_v2_controllers(bases[""])
        group = cls(kind, {c: base / leaf for c, base in bases.items()})
        for path in group.dirs.values():
            path.mkdir()
        try:
            group._limit(limits)
        except OSError:
            group.remove()
            raise
        unified = group.unified
        if unified is not None:  # best effort: without it the whole cgroup is frozen
            with contextlib.suppress(OSError):
                (unified / INTERPRETER).mkdir()
        return group

    def _limit(self, limits: Limits) -> None:
        quota = str(int(limits.cpu_quota * _PERIOD_US))
        if self.version == "v2":
            d = self.dirs[""]
            _write(d / "memory.max", str(limits.memory_bytes))
            with contextlib.suppress(OSError):
                _write(d / "memory.swap.max", "0")
            _write(d / "pids.max", str(limits.pids))
            _write(d / "cpu.max", f"{quota} {_PERIOD_US}")
            _write(d / "cpu.weight.nice", str(os.getpriority(os.PRIO_PROCESS, 0)))
            return
        _write(self.dirs["memory"] / "memory.limit_in_bytes", str(limits.memory_bytes))
        with contextlib.suppress(OSError):  # only with swap accounting
            _write(self.dirs["memory"] / "memory.memsw.limit_in_bytes", str(limits.memory_bytes))
        _write(self.dirs["pids"] / "pids.max", str(limits.pids))
        _write(self.dirs["cpu"] / "cpu.cfs_period_us", str(_PERIOD_US))
        _write(self.dirs["cpu"] / "cpu.cfs_quota_us", quota)
        niceness = os.getpriority(os.PRIO_PROCESS, 0)
        _write(self.dirs["cpu"] / "cpu.shares", str(weight_of_niceness(niceness)))

    @property
    def procs_files(self) -> list[Path]:
        """The ``cgroup.procs`` files a new bot process writes its pid into."""
        return [d / "cgroup.procs" for d in self.dirs.values()]

    @property
    def _main(self) -> Path:
        return self.dirs["" if self.version == "v2" else "freezer"]

    @property
    def unified(self) -> Path | None:
        """This bot's cgroup v2 directory (pure v2, or a hybrid host's unified
        hierarchy); None where only v1 exists."""
        return self.dirs.get("" if self.version == "v2" else "unified")

    @property
    def freeze_file(self) -> Path | None:
        """The cgroup v2 ``cgroup.freeze`` of this bot; None where only the v1 freezer
        exists."""
        unified = self.unified
        return None if unified is None else unified / "cgroup.freeze"

    @property
    def interpreter(self) -> Path | None:
        """The child cgroup (v2) the bot's interpreter is moved into once known
        (:meth:`hold_interpreter`), so that freezing it wakes that process alone rather
        than bwrap's two as well; None if it could not be made."""
        unified = self.unified
        if unified is None or not (unified / INTERPRETER).is_dir():
            return None
        return unified / INTERPRETER

    def hold_interpreter(self, pid: int) -> Path | None:
        """Move process ``pid`` (the bot's interpreter, which cannot fork) into
        :attr:`interpreter`; return that cgroup's ``cgroup.freeze``, None if not moved.
        Its limits are unchanged: the child is below the bot's cgroup (v2 limits hold
        for the whole subtree) and holds no controller (on a hybrid host the v1
        controllers stay where they are)."""
        child = self.interpreter
        if child is None:
            return None
        try:
            _write(child / "cgroup.procs", str(pid))
        except OSError:
            return None
        return child / "cgroup.freeze"

    def pids(self) -> list[int]:
        """Every process in the bot's cgroup (its interpreter's child cgroup included)."""
        found = []
        for directory in (self._main, self.interpreter):
            if directory is None:
                continue
            with contextlib.suppress(OSError):
                found += [int(p) for p in (directory / "cgroup.procs").read_text().split()]
        return list(dict.fromkeys(found))

    def freeze(self) -> None:
        self._set_frozen(True)

    def thaw(self) -> None:
        self._set_frozen(False)

    def _set_frozen(self, frozen: bool, timeout: float = 2.0) -> None:
        freeze = self.freeze_file
        if freeze is not None:
            _write(freeze, "1" if frozen else "0")
        else:
            _write(self._main / "freezer.state", "FROZEN" if frozen else "THAWED")
        deadline = time.monotonic() + timeout
        while self.is_frozen() != frozen:
            if time.monotonic() > deadline:
                raise TimeoutError(f"cgroup {self._main} did not reach frozen={frozen}")
            time.sleep(0.001)

    def is_frozen(self) -> bool:
        """True once every task is frozen (v1 FREEZING counts as not yet)."""
        freeze = self.freeze_file
        if freeze is not None:
            return "frozen 1" in freeze.with_name("cgroup.events").read_text()
        return (self._main / "freezer.state").read_text().strip() == "FROZEN"

    def kill_all(self, timeout: float = 5.0) -> None:
        """SIGKILL every process in the cgroup (frozen first, so none can fork away)."""
        freeze = self.freeze_file
        kill_file = None if freeze is None else freeze.with_name("cgroup.kill")
        if kill_file is not None and kill_file.exists():
            _write(kill_file, "1")
        else:
            with contextlib.suppress(OSError, TimeoutError):
                self.freeze()
            for pid in self.pids():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError, TimeoutError):
                self.thaw()
        deadline, before = time.monotonic() + timeout, None
        while (left := self.pids()) and (remaining := deadline - time.monotonic()) > 0:
            if left == before:  # exited yet still listed: a nap, not a spin
                time.sleep(0.001)
            await_exits(left, min(remaining, EXIT_RECHECK))
            before = left

    def remove(self) -> None:
        """Kill what is left, then delete the directories."""
        self.kill_all()
        child = self.interpreter
        for path in [*([] if child is None else [child]), *self.dirs.values()]:
            for _ in range(100):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def usable_version() -> str | None:
    """The cgroup version if this worker can create, limit and remove a bot cgroup."""
    try:
        BotCgroup.create("probe", Limits()).remove()
    except (OSError, KeyError):
        return None
    return version()


class BotControl:
    """Freeze, thaw and kill one bot: through its cgroup, else by signals to its tree.
    ``dispose`` takes the cgroup once the bot is killed (default: removes it; a runner's
    :class:`~arena_runner.sandbox.cgroup_pool.CgroupPool` keeps it for the next bot)."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        cgroup: BotCgroup | None,
        dispose: Callable[[BotCgroup], None] = BotCgroup.remove,
    ) -> None:
        self.proc, self.cgroup, self.dispose = proc, cgroup, dispose

    def freeze(self) -> None:
        if self.cgroup is not None:
            self.cgroup.freeze()
        else:
            self._signal_tree(signal.SIGSTOP)

    def thaw(self) -> None:
        if self.cgroup is not None:
            self.cgroup.thaw()
        else:
            self._signal_tree(signal.SIGCONT)

    def kill_all(self, timeout: float = 5.0) -> None:
        """Kill the bot and everything it started, reap it, and dispose of its cgroup."""
        tree = self._signal_tree(signal.SIGKILL)
        if self.cgroup is not None:
            self.dispose(self.cgroup)
        self.proc.wait()
        deadline = time.monotonic() + timeout
        while (left := [p for p in tree if is_running(p)]) and (
            remaining := deadline - time.monotonic()
        ) > 0:
            await_exits(left, min(remaining, EXIT_RECHECK))

    def _signal_tree(self, sig: int) -> list[int]:
        tree = [self.proc.pid, *descendants(self.proc.pid)]
        for pid in tree:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        return tree


EXIT_RECHECK = 0.05
"""Seconds between two looks at what is left of a killed bot, should an exit not wake
:func:`await_exits` (a process that went unnoticed, a pid reused)."""


def await_exits(pids: list[int], timeout: float) -> None:
    """Wait up to ``timeout`` seconds for every process of ``pids`` to exit, woken by
    the exits themselves (a pidfd each), not by naps: a killed bot's last process takes
    ~1 ms to go, where a 5 ms nap cost the release of a game's bots ~4 ms. Where pidfds
    are not available, one 1 ms nap."""
    fds: list[int] = []
    try:
        for pid in pids:
            try:
                fds.append(os.pidfd_open(pid))
            except ProcessLookupError:
                continue  # gone already
            except OSError:
                time.sleep(0.001)
                return
        poller = select.poll()
        for fd in fds:
            poller.register(fd, select.POLLIN)
        waiting, deadline = len(fds), time.monotonic() + timeout
        while waiting and (remaining := deadline - time.monotonic()) > 0:
            for fd, _ in poller.poll(math.ceil(remaining * 1000)):
                poller.unregister(fd)
                waiting -= 1
    finally:
        for fd in fds:
            os.close(fd)


def is_running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def proc_table() -> Iterator[tuple[int, int, int]]:
    """(pid, ppid, real uid) of every visible process (``status``'s ``PPid`` and first
    ``Uid``: the real uid even of a process that made itself non-dumpable, which turns
    its ``/proc`` entries over to root)."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as file:
                status = file.read()
            yield int(name), _status_number(status, b"\nPPid:"), _status_number(status, b"\nUid:")
        except (OSError, ValueError):
            continue


def _status_number(status: bytes, key: bytes) -> int:
    """The first number after ``key`` in a ``/proc/PID/status`` text."""
    start = status.index(key) + len(key)
    return int(status[start : status.index(b"\n", start)].split()[0])


def children_of(pid: int) -> list[int]:
    """The children of process ``pid`` (of any of its threads), from ``/proc/PID/task/
    TID/children``: a few reads, where a scan of every process reads them all."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as file:
                found += map(int, file.read().split())
        except (OSError, ValueError):
            continue
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children first; across pid namespaces too)."""
    found, todo = [], children_of(pid)
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children_of(current))
    return found


def real_uid(pid: int) -> int | None:
    """The real uid of process ``pid`` (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as file:
            return _status_number(file.read(), b"\nUid:")
    except (OSError, ValueError):
        return None


def pid_alive(pid: int) -> bool:
    """True while a process ``pid`` exists (ours to signal or not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _owner(name: str) -> int | None:
    """The worker pid in ``catan-arena-<pid>-<name>`` or ``catan-arena-worker-<pid>``."""
    rest = name.removeprefix(PREFIX).removeprefix("worker-")
    head = rest.split("-", 1)[0]
    return int(head) if head.isdigit() else None


def _is_sandbox_command(pid: int) -> bool:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return any(a in (b"bots.runtime", b"bots.jail", b"/arena/env") for a in argv)


def janitor(sandbox_uids: tuple[int, ...] = (65534,)) -> list[str]:
    """Remove ``catan-arena-*`` cgroups of dead workers and kill orphaned bot processes.

    Called when a worker starts; returns what it removed or killed.
    """
    done: list[str] = []
    with contextlib.suppress(OSError):
        bases = _bases() if version() is not None else {}
        for base in bases.values():
            for path in sorted(base.glob(f"{PREFIX}*"), reverse=True):  # bots before workers
                owner = _owner(path.name)
                if path.is_dir() and owner is not None and not pid_alive(owner):
                    _kill_and_rmdir(path)
                    done.append(str(path))
    for pid, ppid, uid in list(proc_table()):
        if uid in sandbox_uids and ppid == 1 and _is_sandbox_command(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                done.append(f"pid {pid}")
    return done


def _kill_and_rmdir(path: Path, timeout: float = 5.0) -> None:
    child = path / INTERPRETER
    if child.is_dir():
        _kill_and_rmdir(child, timeout)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
        except OSError:
            pids = []
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            path.rmdir()
            return
        time.sleep(0.01)
