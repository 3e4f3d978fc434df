"""Every bot process runs as a uid of its own (from a flock-claimed pool): seats never
share per-user kernel limits, and a uid returns to the pool once its bot is gone."""

from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path

import pytest

from arena_runner import BotRunner, resolve_policy
from arena_runner.sandbox import uids
from arena_runner.sandbox.tiers import Tier
from engine import Game, RulesConfig
from tests.support.sandbox import need_tier

BOT = (
    "from bots import Player\n\n\nclass B(Player):\n"
    "    def act(self, o):\n        return o.legal_actions[0]\n"
)


def _real_uid(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1])


@pytest.mark.skipif(os.geteuid() != 0, reason="uids are dropped only by a root worker")
def test_four_seats_run_as_four_uids_of_the_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need_tier(Tier.FULL)
    # a pool and lock folder of this test's own: a parallel test may claim a shared uid
    # the moment ours is released, which would look like a lock never given back
    monkeypatch.setenv(uids.ENV_POOL, "64800-64803")
    monkeypatch.setenv(uids.ENV_LOCK_DIR, str(tmp_path / "locks"))
    game = Game.new(RulesConfig(), 1)
    with tempfile.TemporaryDirectory(prefix="catan-uids-") as tmp:
        bot = Path(tmp) / "bot.py"
        bot.write_text(BOT)
        with BotRunner(resolve_policy(Tier.FULL)) as runner:
            drivers = [runner.driver(bot, f"b{i}") for i in range(4)]
            for seat, driver in enumerate(drivers):
                observation = game.observe(seat, with_legal=False)
                assert driver.start(seat, game.config, game.layout, 1, observation) is None
            seen = []
            for driver in drivers:
                process = driver.process
                assert process is not None
                seen.append(_real_uid(process.bot_pid))
            assert len(set(seen)) == 4, seen
            assert all(uid in uids.pool() for uid in seen), seen
            held = {d.process.uid for d in drivers if d.process is not None}
        assert held == set(seen)
    # released with their bots: each uid's lock can be taken again
    for uid in held:
        fd = os.open(uids.lock_dir() / f"uid{uid}.lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)


def test_a_claimed_uid_is_not_handed_out_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(uids.ENV_POOL, "64900-64901")
    monkeypatch.setenv(uids.ENV_LOCK_DIR, tempfile.mkdtemp(prefix="catan-uid-locks-"))
    first, second = uids.claim_uid(), uids.claim_uid()
    assert {first.uid, second.uid} == {64900, 64901}
    with pytest.raises(OSError, match="every sandbox uid"):
        uids.claim_uid()
    first.release()
    again = uids.claim_uid()
    assert again.uid == first.uid
    again.release()
    second.release()


def test_a_malformed_pool_is_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(uids.ENV_POOL, "0-10")
    with pytest.raises(ValueError, match=uids.ENV_POOL):
        uids.pool()


def test_the_tests_own_uid_is_outside_the_pool_and_held_by_this_worker_alone() -> None:
    """The tests that count a uid's processes ("nothing of the match left") run their
    bots under ``TEST_UID``: a pool uid there would count another worker's bots (seen in
    CI: a hostile test found a concurrent game's sandbox as its "leftover")."""
    from tests.support.hostile import TEST_UID, TEST_UIDS

    assert TEST_UID in TEST_UIDS and not set(TEST_UIDS) & set(uids.pool())
    fd = os.open(uids.lock_dir() / f"uid{TEST_UID}.lock", os.O_RDWR)
    try:  # held by this worker: no other worker can claim it
        with pytest.raises(BlockingIOError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)
