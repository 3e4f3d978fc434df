"""Offline fit of the set-up model in :mod:`bots.builtin.search_setup` (helpers only).

``python -m bots.builtin.search_fit --games 6000 --jobs 2`` plays ``heuristic``
self-play games whose set-up placements are sometimes drawn at random among the
heuristic's top spots (for variety), records every seat's set-up features and whether
it won, fits a logistic regression (numpy, L2) and prints the constants to paste in.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from collections.abc import Callable, Sequence

from bots.builtin.heuristic import HeuristicPlayer
from bots.builtin.heuristic_board import board_info, spot_value
from bots.builtin.heuristic_plan import Plan
from bots.builtin.search_setup import NAMES, ORDER, SYNERGY, all_features
from engine import Game, Phase, RulesConfig
from engine import actions as A

Row = tuple[list[float], int]


def play(seed: int) -> list[Row]:
    """One explored self-play game: each seat's features and outcome (1 = won)."""
    rng = random.Random(seed)
    players = [HeuristicPlayer(random.Random(seed * 7 + i)) for i in range(4)]
    game = Game.new(RulesConfig(), seed + 1_000_000)
    features: list[list[float]] | None = None
    while not game.is_over:
        seat = game.decider
        obs = game.observe(seat)
        if game.phase is Phase.SETUP_SETTLEMENT and rng.random() < 0.5:
            plan = Plan(obs)
            info = board_info(obs.board)
            options = sorted(
                plan.of_type(A.BuildSettlement),
                key=lambda a: -spot_value(info, a.node, plan.prod),
            )
            action: A.Action = rng.choice(options[:6])
        else:
            action = players[seat].act(obs)
        game.apply_unchecked(action)
        if features is None and game.phase is Phase.ROLL:
            features = all_features(game.state)
    outcome = game.outcome
    if features is None or outcome is None or outcome.winner is None:
        return []
    return [(f, int(p == outcome.winner)) for p, f in enumerate(features)]


def fit(rows: list[Row], l2: float = 1.0, steps: int = 300) -> tuple[list[float], float]:
    """Logistic regression by Newton's method."""
    import numpy as np

    x = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows], dtype=float)
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([np.ones((len(x), 1)), (x - mu) / sd])
    w = np.zeros(z.shape[1])
    reg = l2 * np.eye(z.shape[1])
    reg[0, 0] = 0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ (p - y) + reg @ w
        hess = (z.T * (p * (1 - p))) @ z + reg
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    coef = w[1:] / sd
    intercept = w[0] - float((coef * mu).sum())
    p = 1 / (1 + np.exp(-z @ w))
    ll = float((y * np.log(p) + (1 - y) * np.log(1 - p)).mean())
    base = float(y.mean())
    ll0 = base * np.log(base) + (1 - base) * np.log(1 - base)
    print(f"rows {len(rows)}, log-loss {-ll:.4f} vs {-ll0:.4f} (constant)")
    return [float(c) for c in coef], float(intercept)


def fit_self_play(
    games: Callable[[int], list[Row]], names: Sequence[str], default_games: int, jobs: int
) -> None:
    """The fitting scripts' command line: play ``--games`` self-play games (seeds 0, 1,
    ...) on ``--jobs`` processes, fit, print each coefficient by name and the constants."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=default_games)
    parser.add_argument("--jobs", type=int, default=jobs)
    args = parser.parse_args()
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        played = pool.map(games, range(args.games), chunksize=20)
    coef, intercept = fit([r for g in played for r in g])
    for name, c in zip(names, coef, strict=True):
        print(f"  {name:10s} {c:+.4f}")
    print("COEF =", tuple(round(c, 4) for c in coef))
    print("INTERCEPT =", round(intercept, 4))


def main() -> None:
    names = [*NAMES, *SYNERGY, *(f"order{k}" for k in range(1, ORDER + 1))]
    fit_self_play(play, names, default_games=4000, jobs=2)


if __name__ == "__main__":
    main()
