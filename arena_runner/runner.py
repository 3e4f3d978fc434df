"""The bot runner used by ``catan-arena play``, ``validate`` and the workers: it owns the
sandbox policy, the temporary work dir and every bot process it starts."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from arena_runner.drivers import InProcessDriver, PlayerFactory
from arena_runner.policy import SandboxPolicy, resolve_policy
from arena_runner.process import BotProcess, kill_bot_process, spawn_bot_process
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
    ``start``, and a replacement starts at once, so the start-up of the next bots runs
    while the current game is played instead of before it. For workers that start fresh
    bots for every game; a run that reuses its drivers for all games needs none.
    """

    def __init__(self, policy: SandboxPolicy | None = None, *, warm: int = 0) -> None:
        self.policy = policy if policy is not None else resolve_policy()
        if self.policy.tier is not Tier.NONE:
            _janitor_once(self.policy.uid)
        self.workdir = make_workdir()
        self.drivers: list[SubprocessDriver] = []
        self._blanks: list[BotProcess] = []
        for _ in range(warm):
            self._start_blank()

    @property
    def tier(self) -> Tier:
        return self.policy.tier

    def driver(self, path: Path | str, name: str = "") -> SubprocessDriver:
        """A bot file in its own sandboxed process (started now, so imports overlap)."""
        warm = None
        if self._blanks:
            blank = self._blanks.pop(0)
            assert blank.seat_dir is not None
            entry = fill_seat(blank.seat_dir, Path(path).absolute())
            warm = (blank, child_bot_path(self.policy.tier, blank.seat_dir, entry))
            self._start_blank()
        driver = SubprocessDriver(
            path, policy=self.policy, workdir=self.workdir, name=name, warm=warm
        )
        self.drivers.append(driver)
        return driver

    def _start_blank(self) -> None:
        try:
            self._blanks.append(spawn_bot_process(None, self.policy, self.workdir))
        except OSError as exc:  # a driver then spawns its own and reports the failure
            log.warning("could not start a blank sandbox: %s", exc)

    @staticmethod
    def trusted(factory: PlayerFactory, name: str = "") -> InProcessDriver:
        """A trusted built-in player in this process (no sandbox, no time limit)."""
        return InProcessDriver(factory, name)

    def release(self, driver: SubprocessDriver) -> None:
        """Close one driver (its bot process is killed) and forget it: a worker that
        starts fresh bots for every game releases them after each game."""
        driver.close()
        if driver in self.drivers:
            self.drivers.remove(driver)

    def release_all(self, drivers: Sequence[SubprocessDriver]) -> None:
        """:meth:`release` each driver, all asked to exit first so their exits overlap
        (a game's four bots: ~100 ms one after the other, ~80 ms overlapped)."""
        for driver in drivers:
            driver.ask_to_exit()
        for driver in list(drivers):
            self.release(driver)

    def close(self) -> None:
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
