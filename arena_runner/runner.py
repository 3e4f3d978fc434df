"""The bot runner used by ``catan-arena play``, ``validate`` and the workers: it owns the
sandbox policy, the temporary work dir and every bot process it starts."""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import TracebackType

from arena_runner.affinity import current_cpu, release_processes, sparing
from arena_runner.cpu import process_chain
from arena_runner.drivers import InProcessDriver, PlayerFactory
from arena_runner.pipes import wait_readable
from arena_runner.policy import SandboxPolicy, resolve_policy
from arena_runner.process import BotProcess, kill_bot_process, spawn_bot_process
from arena_runner.sandbox.cgroup_pool import CgroupPool
from arena_runner.sandbox.cgroups import janitor
from arena_runner.sandbox.launch import SANDBOX_UID, child_bot_path, fill_seat
from arena_runner.sandbox.tiers import Tier
from arena_runner.sandbox.uids import pool as uid_pool
from arena_runner.subprocess_driver import SubprocessDriver
from arena_runner.workdir import make_workdir, remove_workdir

log = logging.getLogger("arena_runner")


@functools.cache
def _janitor_once(uid: int | None) -> None:
    uids = (SANDBOX_UID, *uid_pool()) if uid is None else (uid,)
    removed = janitor(uids)
    if removed:
        log.warning("janitor removed leftovers of dead runners: %s", ", ".join(removed))


class BotRunner:
    """Starts sandboxed bot drivers; ``close()`` (or ``with``) kills them all and removes
    the work dir. The first runner of a process cleans up after dead ones (``janitor``).

    ``warm``: keep that many *blank* sandboxes started ahead (hardened, runtime imported,
    no bot yet). A new driver takes one, copies its bot file in and names it in its first
    ``start``. Its replacement is started once the game is over — when its drivers are
    released (:meth:`release`, :meth:`release_all`, or :meth:`replenish`) — by a
    background thread, off the CPU this thread was on (the one the next match claims
    first): the next bots start up while the worker records the result, not during the
    game, where starting four processes in this process's background thread slowed the
    game's every hand-over. A driver asked for while no blank is ready waits for one
    being started rather than starting another. For workers that start fresh bots for
    every game; a run that reuses its drivers for all games needs none.
    """

    def __init__(self, policy: SandboxPolicy | None = None, *, warm: int = 0) -> None:
        self.policy = policy if policy is not None else resolve_policy()
        if self.policy.tier is not Tier.NONE:
            _janitor_once(self.policy.uid)
        self.workdir = make_workdir()
        self.cgroups = CgroupPool()
        """Its bots' cgroups, each kept for the next bot once its bot is released."""
        self.drivers: list[SubprocessDriver] = []
        self._blanks: list[BotProcess] = []
        self._lock = threading.Lock()
        self._spawner: ThreadPoolExecutor | None = None
        self._pending: list[Future[None]] = []
        """Blanks being started."""
        self._finding: list[Future[None]] = []
        """Runs of :meth:`_find_bots` not yet done."""
        self._closed = False
        self._owed = 0
        """Blanks taken whose replacements are not started yet (:meth:`replenish`)."""
        for _ in range(warm):
            self._start_blank(current_cpu())
        if warm:
            self._finding.append(self._background().submit(self._find_bots))

    @property
    def tier(self) -> Tier:
        return self.policy.tier

    def driver(self, path: Path | str, name: str = "") -> SubprocessDriver:
        """A bot file in its own sandboxed process (started now, so imports overlap)."""
        warm = None
        blank = self._take_blank()
        if blank is not None:
            assert blank.seat_dir is not None
            release_processes(process_chain(blank.pid))  # its start-up kept it off a CPU
            entry = fill_seat(blank.seat_dir, Path(path).absolute())
            warm = (blank, child_bot_path(self.policy.tier, blank.seat_dir, entry))
            self._owed += 1
        driver = SubprocessDriver(
            path,
            policy=self.policy,
            workdir=self.workdir,
            name=name,
            warm=warm,
            cgroups=self.cgroups,
        )
        self.drivers.append(driver)
        return driver

    def _take_blank(self) -> BotProcess | None:
        """The oldest ready blank; while none is ready but some are being started, the
        first of those once started (sooner than starting another); else None."""
        while True:
            with self._lock:
                if self._blanks:
                    return self._blanks.pop(0)
            self._pending = [f for f in self._pending if not f.done()]
            if not self._pending:
                with self._lock:  # the last one may have finished meanwhile
                    return self._blanks.pop(0) if self._blanks else None
            self._pending[0].result()

    def replenish(self) -> None:
        """Start the replacements of the blanks taken so far, in the background (the
        ~10 ms of making each one's cgroup, seat and process are not the caller's)."""
        owed, self._owed = self._owed, 0
        if not owed or self._closed:
            return
        spawner = self._background()
        self._pending = [f for f in self._pending if not f.done()]
        spare = current_cpu()
        self._pending += [spawner.submit(self._start_blank, spare) for _ in range(owed)]
        self._finding = [f for f in self._finding if not f.done()]
        self._finding.append(spawner.submit(self._find_bots))

    def _background(self) -> ThreadPoolExecutor:
        """The one thread that starts blanks and then finds their bots, in that order."""
        if self._spawner is None:
            self._spawner = ThreadPoolExecutor(1, thread_name_prefix="blank-sandboxes")
        return self._spawner

    def _find_bots(self) -> None:
        """Once each blank started so far has booted, locate its interpreter and move it
        into its interpreter cgroup (:meth:`BotProcess.find_bot`, ~2.5 ms each in the
        kernel) here, in the background, rather than in its driver on a game's clock.
        A blank that does not boot in time is left to its driver (which reports it)."""
        deadline = time.monotonic() + self.policy.limits.spawn_seconds
        with self._lock:
            blanks = list(self._blanks)
        for blank in blanks:
            if not self._booted(blank, deadline):
                continue
            try:
                blank.find_bot()
            except Exception:  # its driver finds it again, or reports why it cannot
                log.warning("could not locate a blank sandbox's bot", exc_info=True)

    def _booted(self, blank: BotProcess, deadline: float) -> bool:
        """Wait until ``blank`` has said hello (its output readable), ``deadline`` passes
        or the runner closes (which then waits for no blank's boot)."""
        assert blank.popen.stdout is not None
        while not self._closed and (remaining := deadline - time.monotonic()) > 0:
            if wait_readable(blank.popen.stdout.fileno(), min(remaining, 0.1)):
                return True
        return False

    def settle(self) -> None:
        """Wait until the blank sandboxes asked for so far have been started and have
        booted (runtime imported, jail reported: each waits for the ``start`` naming its
        bot), so the next game takes ready ones, none still starting on its clock. They
        boot together, so one ``limits.spawn_seconds`` bounds the wait for all of them;
        one slower than that is taken as it is (its driver waits for its hello)."""
        for future in [*self._pending, *self._finding]:
            future.result()
        with self._lock:
            blanks = list(self._blanks)
        deadline = time.monotonic() + self.policy.limits.spawn_seconds
        for blank in blanks:
            self._booted(blank, deadline)

    def _start_blank(self, spare: int) -> None:
        try:
            with sparing(spare):
                blank = spawn_bot_process(None, self.policy, self.workdir, self.cgroups)
        except OSError as exc:  # a driver then spawns its own and reports the failure
            log.warning("could not start a blank sandbox: %s", exc)
            return
        with self._lock:
            self._blanks.append(blank)

    @staticmethod
    def trusted(factory: PlayerFactory, name: str = "") -> InProcessDriver:
        """A trusted built-in player in this process (no sandbox, no time limit)."""
        return InProcessDriver(factory, name)

    def release(self, driver: SubprocessDriver) -> None:
        """Close one driver (its bot process is killed) and forget it: a worker that
        starts fresh bots for every game releases them after each game."""
        self._forget(driver)
        self.replenish()

    def _forget(self, driver: SubprocessDriver) -> None:
        driver.close()
        if driver in self.drivers:
            self.drivers.remove(driver)

    def release_all(self, drivers: Sequence[SubprocessDriver]) -> None:
        """:meth:`release` each driver, all asked to exit first so their exits overlap
        (a game's four bots: ~100 ms one after the other, ~80 ms overlapped)."""
        for driver in drivers:
            driver.ask_to_exit()
        for driver in list(drivers):
            self._forget(driver)
        self.replenish()  # once they are gone: not competing with their release

    def close(self) -> None:
        self._closed = True
        if self._spawner is not None:  # no blank is started after this
            self._spawner.shutdown(wait=True)
        for driver in self.drivers:
            driver.ask_to_exit()
        for driver in self.drivers:
            driver.close()
        self.drivers.clear()
        for blank in self._blanks:
            kill_bot_process(blank)
            for stream in (blank.popen.stdin, blank.popen.stdout, blank.popen.stderr):
                if stream is not None:
                    stream.close()
        self._blanks.clear()
        self.cgroups.close()
        remove_workdir(self.workdir)

    def __enter__(self) -> BotRunner:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
