"""Train the example policy of ``bots/examples/trained_policy/`` by imitation of search.

The teacher is the ``search`` bot's default policy (``bots.builtin.search_policy``: the
heuristic's rules, retuned), four of them playing in-process games. Every decision the
trained bot makes with its scorer (not domestic trade) is recorded as the feature rows of
the candidate actions (``features.py`` of the package) and the teacher's choice. A linear
scorer, softmax over the candidates, is fitted to those choices by full-batch gradient
descent (Adam, L2) with numpy; the weights go to the package's ``weights.json``.
Everything follows from ``--seed``: the game seeds, the players' generators, the fit.

Usage: ``python benchmarks/train_policy.py --games 300 --seed 1 [--eval 200]``
(``--eval N``: then N in-process games of the trained policy against three ``heuristic``
bots on fresh seeds, win rate with a 95% Wilson interval).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bots" / "examples" / "trained_policy"
sys.path[:0] = [str(ROOT), str(PACKAGE)]

from features import NAMES, SIZE, candidates, features  # noqa: E402

from benchmarks.strength import wilson  # noqa: E402
from bots.builtin.heuristic import HeuristicPlayer  # noqa: E402
from bots.builtin.search_policy import SearchPolicy  # noqa: E402
from bots.local import play_local_game, seeded_rng  # noqa: E402
from bots.player import Player  # noqa: E402
from bots.registry import load_player_class  # noqa: E402
from engine import Action, Game, Observation, Phase, RulesConfig  # noqa: E402
from engine.seat_view import SeatView  # noqa: E402

Sample = tuple[np.ndarray, int]
"""One decision: the candidates' feature rows and the index the teacher chose."""
SCORED = frozenset(Phase) - {Phase.TRADE_RESPONSE, Phase.TRADE_CONFIRM}
"""Phases the trained bot decides with its scorer."""


def teacher_game(seed: int) -> list[Sample]:
    """The scored decisions of one game of four teachers (seed ``seed``)."""
    config = RulesConfig()
    game = Game.new(config, seed)
    players = [SearchPolicy(seeded_rng(seed, s)) for s in range(4)]
    views = [SeatView(config, game.layout) for _ in players]
    samples: list[Sample] = []
    while not game.is_over:
        seat = game.decider
        observation = views[seat](game.observe(seat))
        action = players[seat].act(observation)
        sample = _sample(observation, action)
        if sample is not None:
            samples.append(sample)
        game.apply(action)
    return samples


def _sample(observation: Observation, chosen: Action) -> Sample | None:
    if observation.phase not in SCORED or len(observation.legal_actions) < 2:
        return None
    options = candidates(observation)
    if chosen not in options or len(options) < 2:
        return None  # a domestic offer: not the scorer's decision
    return features(observation, options), options.index(chosen)


def fit(samples: list[Sample], seed: int, steps: int, l2: float) -> np.ndarray:
    """Weights maximising the teacher's choices' softmax likelihood (minus L2)."""
    rows = np.concatenate([x for x, _ in samples])
    group = np.concatenate([np.full(len(x), i) for i, (x, _) in enumerate(samples)])
    starts = np.cumsum([0] + [len(x) for x, _ in samples[:-1]])
    target = starts + np.array([c for _, c in samples])
    n = len(samples)
    w: np.ndarray = np.random.default_rng(seed).normal(0.0, 0.01, SIZE)
    m, v = np.zeros(SIZE), np.zeros(SIZE)
    for step in range(1, steps + 1):
        scores = rows @ w
        peak = np.full(n, -np.inf)
        np.maximum.at(peak, group, scores)
        e = np.exp(scores - peak[group])
        total = np.zeros(n)
        np.add.at(total, group, e)
        prob = e / total[group]
        loss = -np.log(prob[target]).mean() + l2 * w @ w
        grad = rows.T @ prob / n - rows[target].sum(axis=0) / n + 2 * l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        if step % 100 == 0 or step == steps:
            agree = _agreement(scores, group, target, n)
            print(f"step {step}: loss {loss:.4f}, teacher's choice top {agree:.1%}", flush=True)
    return w


def _agreement(scores: np.ndarray, group: np.ndarray, target: np.ndarray, n: int) -> float:
    best = np.full(n, -np.inf)
    np.maximum.at(best, group, scores)
    return float(np.mean(scores[target] >= best - 1e-9))


def eval_game(seed: int) -> bool:
    """One in-process game of the trained policy against three heuristics: a win?"""
    seat = seed % 4
    policy = load_player_class(str(PACKAGE / "bot.py"))
    players: list[Player] = [HeuristicPlayer(seeded_rng(seed, s)) for s in range(4)]
    players[seat] = policy(seeded_rng(seed, seat))
    outcome = play_local_game(RulesConfig(), seed, players).outcome
    return outcome.winner == seat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="teacher games to learn from")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=1500, help="gradient steps")
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--eval", type=int, default=0, help="then N games vs 3 heuristics")
    parser.add_argument("--out", type=Path, default=PACKAGE / "weights.json")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    seeds = [args.seed * 1_000_000 + g for g in range(args.games)]
    samples: list[Sample] = []
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for i, game in enumerate(pool.imap(teacher_game, seeds), start=1):
            samples.extend(game)
            if i % 10 == 0 or i == args.games:
                print(f"{i}/{args.games} teacher games, {len(samples)} decisions", flush=True)
    weights = fit(samples, args.seed, args.steps, args.l2)
    document: dict[str, Any] = {
        "features": list(NAMES),
        "weights": [round(float(w), 6) for w in weights],
        "trained": {"games": args.games, "seed": args.seed, "steps": args.steps, "l2": args.l2},
    }
    args.out.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {args.out} ({time.perf_counter() - started:.0f} s)")
    if args.eval:
        base = (args.seed + 1) * 1_000_000_000  # fresh seeds, never a teacher game's
        wins = 0
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for i, won in enumerate(pool.imap(eval_game, range(base, base + args.eval)), 1):
                wins += won
                if i % 10 == 0 or i == args.eval:
                    low, high = wilson(wins, i)
                    print(f"{i} games vs 3 heuristic: {wins} wins = {wins / i:.1%} "
                          f"[95% CI {low:.1%}-{high:.1%}]", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
