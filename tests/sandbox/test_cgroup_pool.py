"""A runner keeps a released bot's cgroup for its next bot (arena_runner.sandbox.cgroup_pool),
and only a clean one: no process left, no memory charge beyond the bound, thawed, made
for the same limits. Controls: a cgroup that fails a check is removed, not kept."""

from __future__ import annotations

import select
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena_runner import BotRunner, play_match, resolve_policy
from arena_runner.sandbox import cgroup_pool
from arena_runner.sandbox.cgroup_pool import CgroupPool, memory_charge, reusable
from arena_runner.sandbox.cgroups import BotCgroup, BotControl
from arena_runner.sandbox.launch import spawn_sandboxed
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import Tier
from engine import RulesConfig
from tests.support.hostile import our_cgroups
from tests.support.sandbox import need_cgroups, need_tier

SLEEPER = "import time\nprint('up', flush=True)\ntime.sleep(60)\n"
FILLER = (
    "open('/tmp/fill', 'wb').write(bytes(8 << 20))\nimport time\n"
    "print('up', flush=True)\ntime.sleep(60)\n"
)
"""Charges 8 MiB of tmpfs to its cgroup while it lives."""


@pytest.fixture
def workdir() -> Iterator[Path]:
    need_tier(Tier.FULL)
    need_cgroups()
    path = Path(tempfile.mkdtemp(prefix="catan-pool-test-", dir="/tmp"))
    path.chmod(0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def pool() -> Iterator[CgroupPool]:
    made = CgroupPool()
    yield made
    made.close()


def start(workdir: Path, group: BotCgroup, source: str = SLEEPER) -> subprocess.Popen[bytes]:
    """A sandboxed process in ``group`` that says ``up``; fails if it cannot run (a frozen
    cgroup keeps it from ever saying so)."""
    bot = Path(tempfile.mkdtemp(dir=workdir)) / "sleeper.py"
    bot.write_text(source)
    proc = spawn_sandboxed(
        bot, tier=Tier.FULL, limits=Limits(), workdir=workdir, module="bots.jail", cgroup=group
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 15.0)
    assert ready, "the process in the cgroup did not run"
    assert proc.stdout.readline() == b"up\n"
    return proc


def kill(proc: subprocess.Popen[bytes], group: BotCgroup, pool: CgroupPool) -> None:
    BotControl(proc, group, pool.give_back).kill_all()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def test_a_released_bots_cgroup_is_the_next_bots_and_none_outlives_the_runner() -> None:
    need_tier(Tier.FULL)
    need_cgroups()
    policy = resolve_policy(Tier.FULL)
    bot = Path("bots/builtin/random_bot.py")
    seen: list[set[tuple[str, ...]]] = []
    with BotRunner(policy) as runner:
        for seed in range(2):
            seats = [runner.driver(bot) for _ in range(4)]
            groups = [seat.process.cgroup for seat in seats if seat.process is not None]
            seen.append({tuple(sorted(map(str, g.dirs.values()))) for g in groups if g})
            result = play_match(RulesConfig(), seed, seats)
            assert not any(result.faults)
            runner.release_all(seats)
        assert len(runner.cgroups) == 4
        assert seen[0] == seen[1] and len(seen[0]) == 4
    assert our_cgroups() == []


def test_a_kept_cgroup_is_thawed_for_its_next_bot(workdir: Path, pool: CgroupPool) -> None:
    group = pool.take("thaw", Limits())
    proc = start(workdir, group)
    group.freeze()
    assert group.is_frozen()
    kill(proc, group, pool)
    assert len(pool) == 1
    again = pool.take("thaw-again", Limits())
    assert again is group
    kill(start(workdir, again), again, pool)  # it runs: not frozen


def test_a_cgroup_with_a_live_process_is_not_reusable(
    workdir: Path, pool: CgroupPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = pool.take("live", Limits())
    proc = start(workdir, group)
    monkeypatch.setattr(cgroup_pool, "LEFTOVER_BYTES", 1 << 40)  # its memory does not decide
    assert not reusable(group)
    kill(proc, group, pool)  # killed first: then clean
    assert len(pool) == 1 and reusable(group)


def test_a_cgroup_charged_for_memory_is_removed_not_kept(
    workdir: Path, pool: CgroupPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = pool.take("charged", Limits())
    proc = start(workdir, group, FILLER)
    assert memory_charge(group) >= 8 << 20  # the tmpfs file is on this cgroup's account
    assert not reusable(group)
    monkeypatch.setattr(cgroup_pool, "LEFTOVER_BYTES", -1)  # any charge at all is too much
    kill(proc, group, pool)
    assert len(pool) == 0
    assert not any(path.exists() for path in group.dirs.values())


def test_control_the_same_cgroup_emptied_is_kept(workdir: Path, pool: CgroupPool) -> None:
    group = pool.take("charged", Limits())
    kill(start(workdir, group, FILLER), group, pool)
    assert memory_charge(group) <= cgroup_pool.LEFTOVER_BYTES  # the tmpfs died with the bot
    assert len(pool) == 1
    assert all(path.exists() for path in group.dirs.values())


def test_a_cgroup_is_only_handed_to_a_bot_with_the_same_limits(
    workdir: Path, pool: CgroupPool
) -> None:
    group = pool.take("limits", Limits())
    kill(start(workdir, group), group, pool)
    other = pool.take("other-limits", Limits(memory_bytes=512 << 20))
    assert other is not group and len(pool) == 1
    assert pool.take("same-limits", Limits()) is group
    other.remove()
    group.remove()


def test_closing_the_pool_removes_its_idle_cgroups(workdir: Path) -> None:
    pool = CgroupPool()
    group = pool.take("close", Limits())
    kill(start(workdir, group), group, pool)
    assert all(path.exists() for path in group.dirs.values())
    pool.close()
    assert not any(path.exists() for path in group.dirs.values())
    late = BotCgroup.create("late", Limits())
    pool.give_back(late)  # given back after closing: removed at once
    assert not any(path.exists() for path in late.dirs.values())
