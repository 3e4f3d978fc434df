"""Engine speed figures: random games per second and per-operation costs.

``python -m engine.perf --games N --seed S --json`` prints one JSON line (the probe used
by ``benchmarks/vs_catanatron.py``); :func:`micro_benchmarks` times the hot operations.
Random players here pick uniformly among legal actions, and every decision builds the
deciding seat's observation, as a real match does.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.config import RulesConfig
from engine.game import Game

BENCH_CONFIG = RulesConfig(domestic_trade=False)
"""The rules subset compared with catanatron: no domestic trade."""


@dataclass(frozen=True)
class RunStats:
    games: int
    seconds: float
    decisions: int
    finished: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": "catan-arena",
            "games": self.games,
            "seconds": self.seconds,
            "decisions": self.decisions,
            "finished": self.finished,
        }


def play_random_game(game: Game, rng: random.Random, observe: bool = True) -> int:
    """Play ``game`` to the end with uniformly random legal actions; return decisions."""
    decisions = 0
    rand = rng.random
    while not game.is_over:
        legal = game.legal_actions()
        if observe:
            game.observe(game.decider)
        game.apply(legal[int(rand() * len(legal))])
        decisions += 1
    return decisions


def play_random_games(
    games: int, seed: int, config: RulesConfig = BENCH_CONFIG, observe: bool = True
) -> RunStats:
    decisions = finished = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.new(config, seed + i)
        decisions += play_random_game(game, random.Random(seed + i), observe)
        outcome = game.outcome
        finished += outcome is not None and outcome.winner is not None
    return RunStats(games, time.perf_counter() - start, decisions, finished)


def _sample_states(count: int, seed: int) -> list[Game]:
    """Games paused at random points of random play (mostly mid-game)."""
    rng = random.Random(seed)
    samples: list[Game] = []
    while len(samples) < count:
        game = Game.new(BENCH_CONFIG, rng.randrange(2**31))
        stop = rng.randrange(50, 900)
        for _ in range(stop):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
        if not game.is_over:
            samples.append(game)
    return samples


def _time_per_call(fn: Callable[[Game], object], games: list[Game], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for g in games:
            fn(g)
    return (time.perf_counter() - start) / (repeat * len(games)) * 1e6


def micro_benchmarks(samples: int = 200, repeat: int = 20, seed: int = 0) -> dict[str, float]:
    """Microseconds per legal-action enumeration, apply, observation and state copy."""
    from engine.rules.legal import legal_actions

    games = _sample_states(samples, seed)
    chosen = [g.legal_actions()[0] for g in games]

    def enumerate_legal(g: Game) -> object:
        return legal_actions(g.state)

    copies = [[g.copy() for g in games] for _ in range(repeat)]
    start = time.perf_counter()
    for batch in copies:
        for g, action in zip(batch, chosen, strict=True):
            g.apply(action)
    apply_us = (time.perf_counter() - start) / (repeat * len(games)) * 1e6
    return {
        "legal_actions_us": _time_per_call(enumerate_legal, games, repeat),
        "apply_us": apply_us,
        "observe_us": _time_per_call(lambda g: g.observe(g.decider), games, repeat),
        "copy_us": _time_per_call(lambda g: g.copy(), games, repeat),
    }


def memory_profile(games: int = 300, seed: int = 0) -> dict[str, float]:
    """Peak traced memory of one game, and resident-set growth over many games."""
    tracemalloc.start()
    play_random_games(1, seed)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    play_random_games(20, seed)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    play_random_games(games, seed + 20)
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "peak_game_kib": peak / 1024,
        "max_rss_kib": float(rss_after),
        "rss_growth_kib": float(rss_after - rss_before),
        "games_for_growth": float(games),
    }


def summarise(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.perf", description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    stats = play_random_games(args.games, args.seed)
    if args.json:
        print(json.dumps(stats.to_dict()))
    else:
        print(
            f"{stats.games / stats.seconds:.1f} games/s, "
            f"{stats.decisions / stats.games:.0f} decisions/game, "
            f"{stats.seconds / stats.decisions * 1e6:.1f} µs/decision"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
