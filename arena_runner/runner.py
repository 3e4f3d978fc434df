"""The bot runner used by ``catan-arena play``, ``validate`` and the workers: it owns the
sandbox policy, the temporary work dir and every bot process it starts."""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from types import TracebackType

from arena_runner.drivers import InProcessDriver, PlayerFactory
from arena_runner.policy import SandboxPolicy, resolve_policy
from arena_runner.sandbox.cgroups import janitor
from arena_runner.sandbox.tiers import Tier
from arena_runner.subprocess_driver import SubprocessDriver
from arena_runner.workdir import make_workdir, remove_workdir

log = logging.getLogger("arena_runner")


@functools.cache
def _janitor_once(uid: int) -> None:
    removed = janitor((uid,))
    if removed:
        log.warning("janitor removed leftovers of dead runners: %s", ", ".join(removed))


class BotRunner:
    """Starts sandboxed bot drivers; ``close()`` (or ``with``) kills them all and removes
    the work dir. The first runner of a process cleans up after dead ones (``janitor``)."""

    def __init__(self, policy: SandboxPolicy | None = None) -> None:
        self.policy = policy if policy is not None else resolve_policy()
        if self.policy.tier is not Tier.NONE:
            _janitor_once(self.policy.uid)
        self.workdir = make_workdir()
        self.drivers: list[SubprocessDriver] = []

    @property
    def tier(self) -> Tier:
        return self.policy.tier

    def driver(self, path: Path | str, name: str = "") -> SubprocessDriver:
        """A bot file in its own sandboxed process (started now, so imports overlap)."""
        driver = SubprocessDriver(path, policy=self.policy, workdir=self.workdir, name=name)
        self.drivers.append(driver)
        return driver

    @staticmethod
    def trusted(factory: PlayerFactory, name: str = "") -> InProcessDriver:
        """A trusted built-in player in this process (no sandbox, no time limit)."""
        return InProcessDriver(factory, name)

    def close(self) -> None:
        for driver in self.drivers:
            driver.close()
        self.drivers.clear()
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
