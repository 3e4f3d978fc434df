"""Limits that agree with the clock. RLIMIT_CPU holds per game: a bot that uses its
thinking time on every decision, game after game in one process, for longer in total
than the process's limit, is never killed by the kernel (a process that could not cover
the next game's budget is started afresh). A bot that loops forever is still stopped,
and one that sleeps is forfeited on its wall-clock budget for the game, which the fault
names."""

from __future__ import annotations

import dataclasses
import math
import tempfile
from pathlib import Path

from arena_runner import BotRunner, play_match, resolve_policy
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import Tier
from arena_runner.subprocess_driver import CPU_LIMIT_MARGIN
from bots.builtin.random_bot import RandomPlayer
from engine import RulesConfig
from tests.support.hostile import TEST_UID
from tests.support.sandbox import need_tier

THINKER = """
import time
from bots import Player


class Thinker(Player):
    decisions = 0

    def act(self, observation):
        Thinker.decisions += 1
        if Thinker.decisions <= BURNS:
            end = time.process_time() + 0.15
            while time.process_time() < end:
                pass
        return self.rng.choice(observation.legal_actions)
"""
SLEEPER = """
import time
from bots import Player


class Sleeper(Player):
    def act(self, observation):
        time.sleep(0.4)
        return self.rng.choice(observation.legal_actions)
"""
LOOPER = """
from bots import Player


class Looper(Player):
    def act(self, observation):
        while True:
            pass
"""


def _play(source: str, games: int, game_seconds: float = 3.0) -> list[object]:
    need_tier(Tier.FULL)
    policy = dataclasses.replace(
        resolve_policy(Tier.FULL), uid=TEST_UID, limits=Limits(cpu_seconds=4)
    )
    results = []
    with tempfile.TemporaryDirectory(prefix="catan-cpu-") as tmp:
        bot = Path(tmp) / "bot.py"
        bot.write_text(source)
        with BotRunner(policy) as runner:
            drivers = [runner.driver(bot, "bot"), BotRunner.trusted(RandomPlayer)]
            drivers.append(BotRunner.trusted(RandomPlayer))
            for seed in range(games):
                results.append(
                    play_match(
                        RulesConfig(players=3, vp_to_win=4),
                        seed,
                        drivers,
                        decision_timeout=0.3,
                        autopilot=RandomPlayer,
                        game_seconds=game_seconds,
                    )
                )
    return results


def test_a_bot_using_its_clock_is_never_killed_by_rlimit_cpu_over_games() -> None:
    # 10 games x 6 decisions x 0.15 s = 9 s of CPU in one process if it were never
    # replaced, more than RLIMIT_CPU (4 s, raised to cover one game: ceil(6) + 2 = 8 s);
    # 0.9 s of CPU in games of 6 s of wall clock, so a machine at load 14 on 2 cores
    # (each CPU second taking up to ~6 s) keeps within them (2.1 s a game ran out there)
    results = _play(THINKER.replace("BURNS", "6"), games=10, game_seconds=6.0)
    raised_limit = math.ceil(6.0) + CPU_LIMIT_MARGIN  # 8 s
    assert sum(result.stats[0].cpu for result in results) > raised_limit  # type: ignore[attr-defined]
    for result in results:
        assert result.faults[0] == [] and result.forfeits == [], result.faults[0]  # type: ignore[attr-defined]
        assert result.stats[0].cpu > 0.8  # type: ignore[attr-defined]


def test_a_bot_that_loops_forever_is_still_stopped() -> None:
    (result,) = _play(LOOPER, games=1)
    faults = result.faults[0]  # type: ignore[attr-defined]
    assert faults and faults[0].kind.value in ("timeout", "resource"), faults
    assert result.forfeits  # type: ignore[attr-defined]


def test_a_sleeping_bot_is_forfeited_on_the_game_wall_clock_budget() -> None:
    """It sleeps 0.2 s a decision: within one decision's allowance (0.3 s charged less
    the slack), so only the game's wall-clock budget stops it."""
    (result,) = _play(SLEEPER.replace("0.4", "0.2"), games=1, game_seconds=2.0)
    faults = result.faults[0]  # type: ignore[attr-defined]
    assert faults and faults[-1].kind.value == "timeout", faults
    assert "for the game" in faults[-1].message, faults
    assert result.forfeits and result.stats[0].total < 3.0  # type: ignore[attr-defined]
