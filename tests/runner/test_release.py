"""Releasing a game's bots: each asked to exit first so the exits overlap, then waited
for (woken by the exit itself), killed if it stays, reaped; nothing left behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from arena_runner import BotRunner, play_match, resolve_policy
from arena_runner.process import wait_for_exit
from bots.registry import resolve_bot
from engine import RulesConfig
from tests.support.runner import pid_gone


def test_release_all_leaves_no_bot_process_and_forgets_the_drivers() -> None:
    with BotRunner(resolve_policy(), warm=3) as runner:
        drivers = [runner.driver(resolve_bot("random")) for _ in range(3)]
        kept = runner.driver(resolve_bot("random"))  # another game's: left alone
        result = play_match(RulesConfig(players=3, vp_to_win=5), 11, drivers)
        assert result.voided is None
        pids = [d.pid for d in drivers]
        runner.release_all(drivers)
        assert runner.drivers == [kept]
        assert all(pid is not None and pid_gone(pid) for pid in pids)
        kept_pid = kept.pid
        assert kept_pid is not None and not pid_gone(kept_pid)
    assert pid_gone(kept_pid)


STUBBORN = """
import atexit, time
from bots import Player

atexit.register(time.sleep, 60)  # at the end of its input it would linger a minute


class Stubborn(Player):
    def act(self, observation):
        return observation.legal_actions[0]
"""


def test_a_bot_that_lingers_after_its_input_ends_is_killed_by_release(tmp_path: Path) -> None:
    bot = tmp_path / "stubborn.py"
    bot.write_text(STUBBORN)
    with BotRunner(resolve_policy()) as runner:
        drivers = [runner.driver(bot), *(runner.driver(resolve_bot("random")) for _ in "ab")]
        result = play_match(RulesConfig(players=3, vp_to_win=3), 5, drivers)
        assert result.voided is None
        pids = [d.pid for d in drivers]
        runner.release_all(drivers)
        assert all(pid is not None and pid_gone(pid) for pid in pids)
        assert runner.drivers == []


def test_wait_for_exit_returns_at_the_exit_and_reaps_or_says_it_is_still_running() -> None:
    quick = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.05)"])
    assert wait_for_exit(quick, 30.0) and quick.returncode == 0  # reaped
    stays = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not wait_for_exit(stays, 0.1) and stays.returncode is None
    finally:
        stays.kill()
        stays.wait()
    assert wait_for_exit(stays, 1.0)  # already reaped: still True
