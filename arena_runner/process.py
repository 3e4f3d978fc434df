"""Starting, pausing and killing a bot process: the one place a bot process is made.

:func:`spawn_bot_process` puts the bot in the sandbox the :class:`SandboxPolicy` asks
for (:func:`arena_runner.sandbox.launch.start_sandbox`), in its own cgroup when the host
allows; :class:`BotProcess` freezes it off turn, reads its CPU time, and kills it and
everything it started as a whole.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import itertools
import os
import select
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

from arena_runner.cpu import cpu_seconds, leaf_pid, process_chain
from arena_runner.policy import SandboxPolicy
from arena_runner.sandbox.cgroup_pool import CgroupPool
from arena_runner.sandbox.cgroups import BotCgroup, BotControl, children_of, real_uid
from arena_runner.sandbox.launch import SANDBOX_UID, start_sandbox
from arena_runner.sandbox.tiers import Tier
from arena_runner.sandbox.uids import UidClaim, claim_uid

_names = itertools.count()

PIPE_READ_WCHANS = frozenset({b"anon_pipe_read", b"pipe_read"})
"""What ``/proc/PID/wchan`` reads for a task asleep in ``read`` on a pipe: an anonymous
one on recent kernels (``anon_pipe_read``), any one on older kernels (``pipe_read``, a
FIFO's too: bwrap's namespaces keep other bots from a bot's FIFOs, see
:attr:`~arena_runner.policy.SandboxPolicy.sleep_holds`)."""


class BotProcess:
    """A running bot: its ``Popen`` (binary stdio pipes), its cgroup (or None), freezing.
    ``dispose`` takes its cgroup once it is killed (default: removes it)."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        cgroup: BotCgroup | None = None,
        *,
        tier: str = "NONE",
        dispose: Callable[[BotCgroup], None] = BotCgroup.remove,
    ) -> None:
        self.popen = popen
        self.cgroup = cgroup
        self.tier = tier
        self._control = BotControl(popen, cgroup, dispose)
        self._cpu_pid: int | None = None
        self._cpu_fd: int | None = None
        """An open ``/proc/PID/schedstat`` of the bot's interpreter, re-read with pread."""
        self._freeze_fd: int | None = None
        """An open cgroup v2 ``cgroup.freeze`` of the bot's cgroup (None: none usable)."""
        self._wchan_fd: int | None = None
        """An open ``/proc/PID/wchan`` of the bot's interpreter, re-read with pread."""
        freeze_file = None if cgroup is None else cgroup.freeze_file
        if freeze_file is not None:
            with contextlib.suppress(OSError):
                self._freeze_fd = os.open(freeze_file, os.O_WRONLY | os.O_CLOEXEC)
        self._chain: list[int] = []
        self._finding = threading.Lock()
        """Held by :meth:`find_bot` (a runner's background thread or a driver)."""
        self.frozen = False
        self.uid: int | None = None
        """The sandbox uid it runs as (None: this worker's own)."""
        self.uid_claim: UidClaim | None = None
        """Its uid's claim on the pool, released once nothing of it is left."""
        self.seat_dir: Path | None = None
        """The host-side bot dir of its seat (where a blank sandbox's bot is copied)."""
        self.killed = False
        """True once the runner killed it (a later signal death is then not the bot's)."""

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def bot_pid(self) -> int:
        """The bot's interpreter (the innermost process), as seen from the host."""
        return self._cpu_pid if self._cpu_pid is not None else leaf_pid(self.popen.pid)

    @property
    def chain(self) -> list[int]:
        """Its processes from the one started to the bot's interpreter (once known)."""
        return list(self._chain)

    def find_bot(self) -> None:
        """Locate the bot's own interpreter (call once the child has said hello, before
        the first freeze) and move it into its cgroup's interpreter cgroup: from then on
        a freeze or thaw wakes that process alone, not bwrap's two above it as well (they
        only wait for it; frozen or not, they run none of the bot's code). Once only: a
        blank sandbox's is found by its runner's background thread as soon as it has
        booted (the move costs ~2.5 ms, the kernel's, off the next game's clock), and a
        driver that took it before then waits here for that call to end."""
        with self._finding:
            if self._cpu_pid is not None:
                return
            self._chain = process_chain(self.popen.pid)
            self._cpu_pid = self._chain[-1]
            if self.cgroup is None or self._freeze_fd is None or self.frozen:
                return
            freeze_file = self.cgroup.hold_interpreter(self._cpu_pid)
            if freeze_file is None:
                return
            with contextlib.suppress(OSError):
                fd = os.open(freeze_file, os.O_WRONLY | os.O_CLOEXEC)
                os.close(self._freeze_fd)
                self._freeze_fd = fd

    def cpu(self) -> float:
        """CPU seconds the bot's interpreter has used so far (two syscalls once known)."""
        if self._cpu_pid is None:
            return cpu_seconds(self.popen.pid)
        try:
            if self._cpu_fd is None:
                self._cpu_fd = os.open(f"/proc/{self._cpu_pid}/schedstat", os.O_RDONLY)
            return int(os.pread(self._cpu_fd, 64, 0).split(None, 1)[0]) / 1e9
        except (OSError, ValueError, IndexError):
            self._close_proc_fds()
            return cpu_seconds(self._cpu_pid)

    def schedstat(self) -> tuple[float, float]:
        """:meth:`cpu` and :meth:`waited` together, from one read once the bot is known."""
        if self._cpu_pid is None:
            return self.cpu(), 0.0
        try:
            if self._cpu_fd is None:
                self._cpu_fd = os.open(f"/proc/{self._cpu_pid}/schedstat", os.O_RDONLY)
            ran, waited = os.pread(self._cpu_fd, 64, 0).split()[:2]
            return int(ran) / 1e9, int(waited) / 1e9
        except (OSError, ValueError):
            self._close_proc_fds()
            return cpu_seconds(self._cpu_pid), 0.0

    def waited(self) -> float:
        """Seconds the bot's interpreter has spent runnable but waiting for a CPU (the
        second field of its schedstat): time the machine's load took, not the bot; 0.0
        where the kernel does not say."""
        if self._cpu_pid is None:
            return 0.0
        try:
            if self._cpu_fd is None:
                self._cpu_fd = os.open(f"/proc/{self._cpu_pid}/schedstat", os.O_RDONLY)
            return int(os.pread(self._cpu_fd, 64, 0).split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            self._close_proc_fds()
            return 0.0

    def asleep_on_input(self) -> bool:
        """True only if the bot's interpreter is asleep in ``read`` on a pipe (what its
        ``/proc/PID/wchan`` names): then nothing but data written to that pipe or a signal
        wakes it. False whenever that is not known for sure: not yet found, unreadable
        (no permission: the kernel reads ``0``), running, or asleep anywhere else (a
        sleep, a poll with a timeout, a timer's file)."""
        if self._cpu_pid is None:
            return False
        try:
            if self._wchan_fd is None:
                self._wchan_fd = os.open(f"/proc/{self._cpu_pid}/wchan", os.O_RDONLY)
            return os.pread(self._wchan_fd, 64, 0) in PIPE_READ_WCHANS
        except OSError:
            return False

    def _close_proc_fds(self) -> None:
        for fd in (self._cpu_fd, self._wchan_fd):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._cpu_fd = self._wchan_fd = None

    def freeze(self) -> None:
        """Stop it from running, without waiting: the cgroup v2 freezer where the bot has
        a v2 cgroup (a frozen task stays frozen whatever signal it gets, so a bot cannot
        wake itself with a SIGCONT it arranged; a few µs through the open file). Without
        one: SIGSTOP to the bot's interpreter once it is known (it cannot fork or start
        threads, and seccomp denies the ways of arranging a SIGCONT for itself), the v1
        freezer before that. CPU used off turn anyway is charged to the seat."""
        if self.frozen or self.popen.returncode is not None:
            return
        self.frozen = True
        self._set(signal.SIGSTOP, True)

    def thaw(self) -> None:
        if not self.frozen:
            return
        self.frozen = False
        self._set(signal.SIGCONT, False)

    def _set(self, sig: int, frozen: bool) -> None:
        with contextlib.suppress(OSError):
            if self._freeze_fd is not None:
                os.pwrite(self._freeze_fd, b"1" if frozen else b"0", 0)
            elif self._cpu_pid is not None and self.tier != "NONE":
                os.kill(self._cpu_pid, sig)
            elif self.cgroup is not None:
                _write_freezer(self.cgroup, frozen)
            else:  # tier NONE: its own session and process group
                os.killpg(self.popen.pid, sig)

    def kill(self) -> None:
        """Kill the bot and everything it started, reap it, remove its cgroup.

        The innermost process dies first, so each bwrap layer reaps the one below and
        exits by itself: no orphan is left for init to reap."""
        self.killed = self.killed or self.popen.poll() is None
        self._close_proc_fds()
        self.thaw()
        if self._freeze_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._freeze_fd)
            self._freeze_fd = None
        chain = process_chain(self.popen.pid) if self.popen.poll() is None else []
        chain = chain if len(chain) > len(self._chain) else self._chain
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(chain[-1], signal.SIGKILL)
            wait_for_exit(self.popen, 1.0)
        self._control.kill_all()
        _reap_orphans(chain[1:])
        _OUTER.discard(self.popen.pid)
        if self.uid is not None:
            _reap_strays(self.uid)
        if self.uid_claim is not None:
            self.uid_claim.release()
            self.uid_claim = None
        if self.seat_dir is not None:  # its copy of the bot and its tmp: nothing kept
            shutil.rmtree(self.seat_dir.parent, ignore_errors=True)
            self.seat_dir = None


def wait_for_exit(popen: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for ``popen`` to exit and reap it; True if it did.
    Woken by the exit itself (a pidfd), not by ``Popen.wait``'s polling, whose growing
    naps overshoot a bot's ~10 ms exit by several ms."""
    if popen.poll() is not None:
        return True
    try:
        pidfd = os.pidfd_open(popen.pid)
    except OSError:  # no pidfds here (or it was just reaped): poll as Popen does
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(timeout)
        return popen.poll() is not None
    try:
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        poller.poll(max(0, int(timeout * 1000)))
    finally:
        os.close(pidfd)
    return popen.poll() is not None


PR_SET_CHILD_SUBREAPER = 36
_OUTER: set[int] = set()
"""Pids of live bots' outer processes: reaped through their ``Popen``, never as strays."""
_STARTING = threading.Lock()
"""Held while a bot process is started and until its pid is in :data:`_OUTER` (blank
sandboxes start in a background thread): strays are not looked for meanwhile."""


def _reap_strays(uid: int, timeout: float = 1.0) -> None:
    """Kill and reap this worker's children running as the sandbox ``uid`` that belong to
    no live bot: inner sandbox processes orphaned to us (we are a subreaper) that no
    process chain showed, e.g. one forked by bwrap just as its half-started sandbox was
    killed. Waits up to ``timeout`` for such a process to die."""
    deadline = time.monotonic() + timeout
    me = os.getpid()
    while True:
        with _STARTING:
            mine = [p for p in children_of(me) if p not in _OUTER]
            strays = [p for p in mine if real_uid(p) == uid]
        left = []
        for pid in strays:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            try:
                if not os.waitpid(pid, os.WNOHANG)[0]:
                    left.append(pid)
            except ChildProcessError:
                pass
        if not left or time.monotonic() > deadline:
            return
        time.sleep(0.002)


@functools.cache
def become_subreaper() -> bool:
    """Make this worker inherit its bots' orphans (bwrap's monitor exits without reaping
    its init), so :func:`_reap_orphans` can reap them instead of a slow or absent init."""
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0


def _reap_orphans(pids: list[int], timeout: float = 2.0) -> None:
    """Reap the given inner processes once they were re-parented to this worker.

    An inner process whose parent has not exited yet is not ours to reap: it is waited
    for (it may be re-parented to us any moment) until it is gone or ``timeout``."""
    deadline = time.monotonic() + timeout
    for pid in pids:
        while True:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not (yet) ours: gone, or its parent reaps it
                if not os.path.exists(f"/proc/{pid}"):
                    break
                done = 0
            if done or time.monotonic() > deadline:
                break
            time.sleep(0.002)


def _write_freezer(cgroup: BotCgroup, frozen: bool) -> None:
    """The v1 freezer (only used where the bot has no v2 cgroup)."""
    (cgroup.dirs["freezer"] / "freezer.state").write_text("FROZEN" if frozen else "THAWED")


def spawn_bot_process(
    path: Path | None, policy: SandboxPolicy, workdir: Path, pool: CgroupPool | None = None
) -> BotProcess:
    """Start ``bots.runtime`` for the bot file ``path`` at ``policy.tier`` with a seat
    dir under ``workdir``; raises OSError when the sandbox cannot be set up. ``None``
    starts a blank sandbox (``seat_dir`` set) whose bot the ``start`` message names.
    ``pool``: the runner's cgroups (the bot's is taken from it and given back to it)."""
    become_subreaper()
    claim = None
    uid = policy.uid
    if uid is None:
        uid = SANDBOX_UID
        if os.geteuid() == 0 and policy.tier is not Tier.NONE:
            claim = claim_uid()
            uid = claim.uid
    cgroup = None
    make, dispose = (
        (BotCgroup.create, BotCgroup.remove) if pool is None else (pool.take, pool.give_back)
    )
    try:
        if policy.cgroups:
            cgroup = make(f"bot{next(_names)}", policy.limits)
    except BaseException:
        if claim is not None:
            claim.release()
        raise
    try:
        with _STARTING:
            popen, seat_dir = start_sandbox(
                path,
                tier=policy.tier,
                limits=policy.limits,
                workdir=workdir,
                cgroup=cgroup,
                uid=uid,
                require=policy.jail_layers,
                jail_layers=policy.jail_layers,
            )
            _OUTER.add(popen.pid)
    except BaseException:
        if cgroup is not None:
            dispose(cgroup)
        if claim is not None:
            claim.release()
        raise
    process = BotProcess(popen, cgroup, tier=policy.tier.name, dispose=dispose)
    process.seat_dir = seat_dir
    process.uid_claim = claim
    if os.geteuid() == 0 and uid != 0:
        process.uid = uid
    return process


def kill_bot_process(process: BotProcess) -> None:
    """Kill the bot and anything it started (its cgroup or process tree), then reap it."""
    process.kill()
