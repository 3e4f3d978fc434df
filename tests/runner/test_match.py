"""Whole matches through subprocess drivers: replays verify, same seed same game, and
misbehaving bots get faults while the game goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_runner import (
    FaultKind,
    InProcessDriver,
    MatchResult,
    SeatDriver,
    SubprocessDriver,
    play_match,
)
from bots.builtin.random_bot import RandomPlayer
from bots.registry import resolve_bot
from engine import RulesConfig
from engine.replay import verify
from tests.support.runner import pid_gone, write_bot

SEED = 11
CONFIG = RulesConfig()


def run(drivers: list[SubprocessDriver], decision_timeout: float = 5.0) -> MatchResult:
    """Play one game and close the drivers, checking their processes are gone."""
    pids = [d.pid for d in drivers]
    try:
        return play_match(CONFIG, SEED, drivers, decision_timeout=decision_timeout)
    finally:
        for driver in drivers:
            driver.close()
        assert all(pid is not None and pid_gone(pid) for pid in pids)
        assert not any(d.alive for d in drivers)


@pytest.fixture(scope="module")
def random_match() -> MatchResult:
    return run([SubprocessDriver(resolve_bot("random")) for _ in range(4)])


def test_subprocess_match_finishes_and_its_replay_verifies(random_match: MatchResult) -> None:
    verify(random_match.replay)
    assert random_match.outcome.turns > 0
    assert random_match.all_faults == []
    assert [s["name"] for s in random_match.replay.seats] == ["random"] * 4
    stats = random_match.stats
    assert sum(s.decisions + s.forced for s in stats) == len(random_match.replay.steps)
    assert all(s.forced > 0 for s in stats)
    assert all(s.defaults == 0 and 0 < s.mean <= s.max for s in stats)


def test_same_seed_same_replay_in_process(random_match: MatchResult) -> None:
    drivers: list[SeatDriver] = [InProcessDriver(RandomPlayer) for _ in range(4)]
    in_process = play_match(CONFIG, SEED, drivers)
    assert in_process.replay.steps == random_match.replay.steps
    assert random_match.replay.meta == {"sandbox": [random_match.tier] * 4}
    assert in_process.replay.meta == {"sandbox": ["in-process"] * 4}


@pytest.fixture(scope="module")
def faulty_match(bot_dir: Path) -> MatchResult:
    drivers = [
        SubprocessDriver(write_bot(bot_dir, kind))
        for kind in ("raising", "exiting", "hanging", "illegal")
    ]
    return run(drivers, decision_timeout=0.5)


def test_misbehaving_bots_get_faults_and_the_game_finishes(faulty_match: MatchResult) -> None:
    verify(faulty_match.replay)
    raising, exiting, hanging, illegal = faulty_match.faults
    assert raising and {f.kind for f in raising} == {FaultKind.ERROR}
    assert "RuntimeError: kaboom" in raising[0].message
    assert "kaboom" in raising[0].detail
    assert [f.kind for f in exiting] == [FaultKind.CRASH]
    assert "exited with code 7" in exiting[0].message
    assert [f.kind for f in hanging] == [FaultKind.TIMEOUT]
    assert illegal and {f.kind for f in illegal} == {FaultKind.ILLEGAL}
    for seat, seat_faults in enumerate(faulty_match.faults):
        assert all(f.seat == seat for f in seat_faults)
    assert faulty_match.replay.meta["faults"][0]["kind"] in {k.value for k in FaultKind}


def test_dead_processes_get_safe_defaults(faulty_match: MatchResult) -> None:
    stats = faulty_match.stats
    replay_decisions = [0] * 4
    for step in faulty_match.replay.steps:
        replay_decisions[step.seat] += 1
    # The exiting and hanging bots were asked 21 times: one safe default for the fault,
    # then their dead seats were forfeited to the autopilot.
    for seat in (1, 2):
        assert stats[seat].decisions == 21 and stats[seat].defaults == 1
        assert stats[seat].autopilot + stats[seat].forced == replay_decisions[seat] - 21
    # The raising and illegal bots got 3 strikes (3 safe defaults), then the autopilot.
    for seat in (0, 3):
        assert stats[seat].decisions == 23 and stats[seat].defaults == 3
        assert stats[seat].autopilot + stats[seat].forced == replay_decisions[seat] - 23
    assert faulty_match.forfeited == {0, 1, 2, 3}
    assert faulty_match.strikes == [3, 1, 1, 3]


def test_a_random_opponent_is_unaffected(bot_dir: Path) -> None:
    drivers = [SubprocessDriver(write_bot(bot_dir, "hanging", after=0))]
    drivers += [SubprocessDriver(resolve_bot("random")) for _ in range(3)]
    result = run(drivers, decision_timeout=0.3)
    verify(result.replay)
    assert [len(f) for f in result.faults] == [1, 0, 0, 0]
    assert result.stats[0].decisions == 1
    assert all(s.defaults == 0 for s in result.stats[1:])


def test_bot_output_goes_to_the_log_not_the_protocol(bot_dir: Path) -> None:
    drivers = [SubprocessDriver(write_bot(bot_dir, "printing", after=0))]
    drivers += [SubprocessDriver(resolve_bot("random")) for _ in range(3)]
    result = run(drivers)
    assert result.all_faults == []
    assert "to stdout 1 Clock(decision=5.0, bank=0.0, game=600.0)\n" in result.logs[0]
    assert "to stderr" in result.logs[0]
    assert result.logs[1:] == ["", "", ""]


def test_an_illegal_autopilot_move_is_replaced_by_a_safe_default() -> None:
    from arena_runner.drivers import InProcessDriver
    from bots.player import Player
    from engine import actions as A

    class Crasher(Player):
        def act(self, observation):  # type: ignore[no-untyped-def]
            raise RuntimeError("gone")

    class Cheater(Player):
        def act(self, observation):  # type: ignore[no-untyped-def]
            return A.BuildCity(0)  # almost never legal

    drivers = [
        InProcessDriver(Crasher),
        InProcessDriver(RandomPlayer),
        InProcessDriver(RandomPlayer),
    ]
    result = play_match(RulesConfig(players=3, vp_to_win=4), 3, drivers, autopilot=Cheater)
    assert 0 in result.forfeited
    stats = result.stats[0]
    assert stats.autopilot > 0 and stats.defaults >= stats.autopilot - 1
    verify(result.replay)
