"""A match runs on one CPU: the runner's thread and every bot process are pinned to a
CPU that no concurrent match has claimed, and the runner's affinity is restored after."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena_runner import BotRunner, SandboxPolicy, Tier, play_match
from arena_runner.affinity import ENV_LOCK_DIR, claimed_cpu, current_cpu
from bots.registry import resolve_bot
from engine import RulesConfig


@pytest.fixture(autouse=True)
def private_claims(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Claims of these tests only (not those of matches in other test workers)."""
    monkeypatch.setenv(ENV_LOCK_DIR, str(tmp_path / "cpus"))


needs_two_cpus = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="needs a host with two CPUs to choose from"
)


def test_the_thread_is_pinned_for_the_claim_and_restored_after() -> None:
    before = os.sched_getaffinity(0)
    with claimed_cpu() as cpu:
        assert cpu is not None and cpu in before
        assert os.sched_getaffinity(0) == {cpu}
        assert current_cpu() == cpu
    assert os.sched_getaffinity(0) == before


HOLDER = (
    "import sys\nfrom arena_runner.affinity import claimed_cpu\n"
    "with claimed_cpu() as cpu:\n    print(cpu, flush=True)\n    sys.stdin.read()\n"
)


def _hold_one_cpu() -> tuple[subprocess.Popen[str], int]:
    """A process that claims a CPU and holds it until its stdin closes."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None
    return holder, int(holder.stdout.readline())


@needs_two_cpus
def test_a_cpu_claimed_by_another_process_is_not_taken() -> None:
    holder, taken = _hold_one_cpu()
    try:
        with claimed_cpu() as cpu:
            assert cpu != taken
    finally:
        holder.communicate("")


def test_when_every_cpu_is_claimed_the_match_shares_one() -> None:
    holders = [_hold_one_cpu() for _ in os.sched_getaffinity(0)]
    try:
        assert len({cpu for _, cpu in holders}) == len(holders)  # each claimed its own
        with claimed_cpu() as cpu:
            assert cpu is not None and os.sched_getaffinity(0) == {cpu}
    finally:
        for holder, _ in holders:
            holder.communicate("")


def test_match_pins_every_bot_process_to_the_runner_cpu() -> None:
    config = RulesConfig(players=3, vp_to_win=4)
    with BotRunner(SandboxPolicy(Tier.NONE)) as runner:
        drivers = [runner.driver(resolve_bot("random")) for _ in range(3)]
        spread = os.sched_getaffinity(0)
        play_match(config, 3, drivers)
        pinned = [os.sched_getaffinity(d.process.bot_pid) for d in drivers]  # type: ignore[union-attr]
        assert all(len(p) == 1 for p in pinned) and len({frozenset(p) for p in pinned}) == 1
        for driver, cpus in zip(drivers, pinned, strict=True):  # the sandbox's own processes too
            assert all(os.sched_getaffinity(pid) == cpus for pid in driver.process.chain)  # type: ignore[union-attr]
        assert os.sched_getaffinity(0) == spread  # the runner's own affinity is back

        play_match(config, 4, drivers, one_cpu=False)  # not asked: left where they were
        assert [os.sched_getaffinity(d.process.bot_pid) for d in drivers] == pinned  # type: ignore[union-attr]
