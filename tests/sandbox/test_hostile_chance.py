"""No bot can predict the game's chance: a hostile bot in the real FULL sandbox tries
every route it has (the start message up its stack, its own ``rng``, the old seed
formula, anything seed-like in its process, a scan of small seeds against the board) to
predict its own next roll, development card and steal. Scored against the replay, it is
right no more often than luck; the positive control — the very same bot, sandbox and
scoring, but a game seeded with a small integer, which its scan finds — predicts
every outcome, so the attack code works and the test can fail."""

from __future__ import annotations

import dataclasses
import json
import math
import tempfile
from pathlib import Path
from typing import Any

from arena_runner import BotRunner, play_match, resolve_policy
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import Tier
from bots.builtin.random_bot import RandomPlayer
from engine import RulesConfig
from engine.replay import Replay, state_at
from engine.rng import new_seed
from engine.types import Resource
from tests.support.hostile import HOSTILE, TEST_UID, VICTIM
from tests.support.sandbox import need_tier

CONFIG = RulesConfig(players=3)
FAIR_GAMES = 3
MAX_GAMES = 8
MIN_TRIES = 200
Z_999 = 3.09  # one-sided 99.9% normal quantile


@dataclasses.dataclass
class Score:
    tries: int = 0
    hits: int = 0
    luck: float = 0.0
    """Expected hits by luck: the sum over tries of P(actual outcome = prediction)."""
    luck_var: float = 0.0

    def add(self, hit: bool, p: float) -> None:
        self.tries += 1
        self.hits += hit
        self.luck += p
        self.luck_var += p * (1 - p)

    @property
    def luck_bound(self) -> float:
        """Hits above this are luck with probability < 0.1% (plus one for discreteness)."""
        return self.luck + Z_999 * math.sqrt(self.luck_var) + 1


def _play(seeds: list[int | str]) -> list[tuple[Replay, dict[str, Any]]]:
    """Play each seed with the predictor in seat 0 against two random bots, all FULL."""
    need_tier(Tier.FULL)
    policy = dataclasses.replace(
        resolve_policy(Tier.FULL), uid=TEST_UID, limits=Limits(import_seconds=20.0)
    )
    games = []
    with tempfile.TemporaryDirectory(prefix="catan-chance-") as tmp:
        victim = Path(tmp) / "victim.py"
        victim.write_text(VICTIM)
        for seed in seeds:
            with BotRunner(policy) as runner:
                drivers = [
                    runner.driver(HOSTILE / "chance_predictor.py", "predictor"),
                    runner.driver(victim, "victim"),
                    runner.driver(victim, "victim"),
                ]
                result = play_match(
                    CONFIG,
                    seed,
                    drivers,
                    decision_timeout=5.0,
                    time_bank=10.0,
                    autopilot=RandomPlayer,
                    ask_forced=True,
                )
            assert result.voided is None and result.faults[0] == [], result.faults[0]
            lines = [x for x in result.logs[0].splitlines() if x.startswith("PREDICTIONS ")]
            assert lines, (result.faults, result.logs[0][-2000:])
            line = lines[-1]
            games.append((result.replay, json.loads(line.removeprefix("PREDICTIONS "))))
    return games


def _score(games: list[tuple[Replay, dict[str, Any]]]) -> dict[str, Score]:
    """Each prediction against the recorded outcome, with its luck from the full state."""
    scores = {"roll_dice": Score(), "buy_dev_card": Score(), "move_robber": Score()}
    for replay, report in games:
        for step, kind, predicted in report["predictions"]:
            recorded = replay.steps[step]
            assert recorded.seat == 0 and recorded.action.kind == kind
            actual = recorded.outcome
            state = state_at(replay, step).state
            if kind == "roll_dice":
                p = 1 / 36
            elif kind == "buy_dev_card":
                counts = state.deck
                p = _share(counts, _dev_index(predicted))
            else:
                counts = state.hands[recorded.action.victim]
                p = _share(counts, _resource_index(predicted))
            scores[kind].add(predicted is not None and predicted == actual, p)
    return scores


def _share(counts: list[int], index: int | None) -> float:
    return 0.0 if index is None else counts[index] / sum(counts)


def _dev_index(label: Any) -> int | None:
    from engine.types import DevCard

    return None if label is None else int(DevCard.parse(label))


def _resource_index(label: Any) -> int | None:
    return None if label is None else int(Resource.parse(label))


def test_a_hostile_bot_predicts_chance_no_better_than_luck() -> None:
    games = _play([new_seed() for _ in range(FAIR_GAMES)])
    scores = _score(games)
    while sum(s.tries for s in scores.values()) < MIN_TRIES and len(games) < MAX_GAMES:
        games += _play([new_seed()])  # short games: play on until the tries are enough
        scores = _score(games)
    assert all(report["route"] is None for _, report in games), "a route found the seed"
    assert sum(s.tries for s in scores.values()) >= MIN_TRIES, {
        k: s.tries for k, s in scores.items()
    }
    for kind, score in scores.items():
        assert score.hits <= score.luck_bound, (kind, score)


def test_positive_control_the_same_bot_predicts_everything_from_a_guessable_seed() -> None:
    games = _play([5])
    assert games[0][1]["route"] == "5"
    scores = _score(games)
    for kind, score in scores.items():
        assert score.tries > 0, kind
        assert score.hits == score.tries, (kind, score)
        if kind == "roll_dice":
            assert score.hits > score.luck_bound
