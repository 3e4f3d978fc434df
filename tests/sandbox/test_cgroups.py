"""Per-bot cgroups (freeze, thaw, kill), the signal fallback, and the janitor."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena_runner.sandbox import cgroups
from arena_runner.sandbox.cgroups import BotCgroup, BotControl, descendants, is_running, janitor
from arena_runner.sandbox.launch import spawn_sandboxed
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import Tier
from tests.support.sandbox import need_cgroups, need_tier

SLEEPER = "import time\nprint('up', flush=True)\ntime.sleep(60)\n"


@pytest.fixture
def workdir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="catan-cgroup-test-", dir="/tmp"))
    path.chmod(0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _start(workdir: Path, cgroup: BotCgroup | None) -> subprocess.Popen[bytes]:
    bot = workdir / "sleeper.py"
    bot.write_text(SLEEPER)
    proc = spawn_sandboxed(
        bot, tier=Tier.FULL, limits=Limits(), workdir=workdir, module="bots.jail", cgroup=cgroup
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"up\n"
    return proc


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_cgroup_freeze_thaw_kill(workdir: Path) -> None:
    need_tier(Tier.FULL)
    need_cgroups()
    group = BotCgroup.create(f"t-{workdir.name}", Limits())
    try:
        proc = _start(workdir, group)
        assert proc.pid in group.pids()
        assert len(group.pids()) >= 2  # bwrap monitor, its pid-1, the bot's python
        control = BotControl(proc, group)
        control.freeze()
        assert group.is_frozen()
        control.thaw()
        assert not group.is_frozen()
        control.kill_all()
        assert proc.returncode is not None
        assert group.pids() == []
    finally:
        group.remove()
    assert not any(path.exists() for path in group.dirs.values())


def test_signal_fallback_freezes_the_whole_tree(workdir: Path) -> None:
    need_tier(Tier.FULL)
    proc = _start(workdir, None)
    control = BotControl(proc, None)
    tree = [proc.pid, *descendants(proc.pid)]
    assert len(tree) >= 3
    control.freeze()
    time.sleep(0.05)
    assert {_state(pid) for pid in tree} == {"T"}
    control.thaw()
    time.sleep(0.05)
    assert "T" not in {_state(pid) for pid in tree}
    control.kill_all()
    assert not any(is_running(pid) for pid in tree)


def test_janitor_removes_dead_workers_cgroups() -> None:
    need_cgroups()
    dead = subprocess.Popen(["true"])
    dead.wait()
    leftovers = []
    for base in cgroups._bases().values():
        path = base / f"{cgroups.PREFIX}{dead.pid}-seat0"
        path.mkdir()
        leftovers.append(path)
    mine = BotCgroup.create("alive", Limits())
    try:
        removed = janitor()
        assert all(str(path) in removed for path in leftovers)
        assert not any(path.exists() for path in leftovers)
        assert all(path.exists() for path in mine.dirs.values())  # a live worker's: kept
    finally:
        mine.remove()


def test_await_exits_returns_once_the_processes_are_gone_and_not_before() -> None:
    """Woken by the exits (pidfds): it returns when the last one is gone, and a process
    that does not exit holds it to the timeout (the control)."""
    quick = subprocess.Popen(["sleep", "0.2"])
    slow = subprocess.Popen(["sleep", "30"])
    try:
        cgroups.await_exits([quick.pid, slow.pid], 0.5)
        assert quick.poll() is not None  # waited for the quick one's exit
        assert slow.poll() is None  # the control: still running at the timeout
        slow.kill()
        cgroups.await_exits([quick.pid, slow.pid], 30)
        assert slow.poll() is not None
    finally:
        for proc in (quick, slow):
            proc.kill()
            proc.wait()


def test_kill_all_leaves_no_process_in_the_cgroup(workdir: Path) -> None:
    need_tier(Tier.FULL)
    need_cgroups()
    group = BotCgroup.create(f"t-{workdir.name}", Limits())
    try:
        proc = _start(workdir, group)
        assert len(group.pids()) >= 2
        group.kill_all()
        assert group.pids() == []  # waited until the last one left, not merely signalled
        proc.wait(5)
    finally:
        group.remove()
