"""Offline fit of the set-up model in :mod:`bots.builtin.search_setup` (helpers only).

``python -m bots.builtin.search_fit --games 6000 --jobs 2`` plays ``heuristic``
self-play games whose set-up placements are sometimes drawn at random among the
heuristic's top spots (for variety), records every seat's set-up features and whether
it won, fits a logistic regression (numpy, L2) and prints the constants to paste in.
With ``--games-of search`` one seat of each game is the ``search`` bot itself (clocks
frozen, 8 samples a decision, as in ``benchmarks/paired_inprocess.py``) against three
heuristics, and only its row is kept: the model then predicts how search's own play
does from a start.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from bots.builtin.heuristic import HeuristicPlayer
from bots.builtin.heuristic_board import board_info, spot_value
from bots.builtin.heuristic_plan import Plan
from bots.builtin.search import SearchPlayer
from bots.builtin.search_clock import make_reproducible
from bots.builtin.search_setup import COEF, INTERCEPT, NAMES, ORDER, SYNERGY, all_features
from bots.player import Player
from engine import Game, Observation, Phase, RulesConfig
from engine import actions as A

Row = tuple[list[float], int]


def play(seed: int) -> list[Row]:
    """One explored self-play game: each seat's features and outcome (1 = won)."""
    players = [HeuristicPlayer(random.Random(seed * 7 + i)) for i in range(4)]
    features, winner = explored_game(players, seed, seed + 1_000_000, lambda seat: True)
    if features is None or winner is None:
        return []
    return [(f, int(p == winner)) for p, f in enumerate(features)]


def play_search(seed: int) -> list[Row]:
    """One game of a ``search`` seat (seat ``seed % 4``) against three heuristics, half
    of its set-up settlements drawn among the heuristic's top six: its features and
    outcome (1 = won)."""
    me = seed % 4
    players: list[Player] = [HeuristicPlayer(random.Random(seed * 7 + i)) for i in range(4)]
    players[me] = SearchPlayer(random.Random(seed * 7 + me))
    make_reproducible(players[me], 8)
    features, winner = explored_game(players, seed, seed + 3_000_000, lambda seat: seat == me)
    if features is None:
        return []
    return [(features[me], int(winner == me))]


def explored_game(
    players: Sequence[Player], seed: int, game_seed: int, explores: Callable[[int], bool]
) -> tuple[list[list[float]] | None, int | None]:
    """Play one game, half the set-up settlements of the seats ``explores`` names drawn
    among the heuristic's top spots (``seed``: those draws): every seat's set-up
    features (None if the game never left the set-up) and the winner."""
    rng = random.Random(seed)
    game = Game.new(RulesConfig(), game_seed)
    features: list[list[float]] | None = None
    while not game.is_over:
        seat = game.decider
        obs = game.observe(seat)
        explore = explores(seat) and game.phase is Phase.SETUP_SETTLEMENT
        explore = explore and rng.random() < 0.5
        action = _explored(obs, rng) if explore else players[seat].act(obs)
        game.apply_unchecked(action)
        if features is None and game.phase is Phase.ROLL:
            features = all_features(game.state)
    outcome = game.outcome
    return features, None if outcome is None else outcome.winner


def _explored(obs: Observation, rng: random.Random) -> A.Action:
    """A set-up settlement drawn among the heuristic's top six spots."""
    plan = Plan(obs)
    info = board_info(obs.board)
    options = sorted(
        plan.of_type(A.BuildSettlement), key=lambda a: -spot_value(info, a.node, plan.prod)
    )
    return rng.choice(options[:6])


def log_loss(rows: list[Row], coef: Sequence[float], intercept: float) -> float:
    """Mean log-loss of a fitted model's constants on ``rows``."""
    total = 0.0
    for x, y in rows:
        p = 1 / (1 + math.exp(-(intercept + sum(c * v for c, v in zip(coef, x, strict=True)))))
        total -= math.log(p if y else 1 - p)
    return total / len(rows)


def fit(
    rows: list[Row],
    l2: float = 1.0,
    steps: int = 300,
    prior: tuple[Sequence[float], float] | None = None,
) -> tuple[list[float], float]:
    """Logistic regression by Newton's method; with ``prior`` (constants), corrections
    to that model's log-odds, shrunk toward it (few rows move it little)."""
    import numpy as np

    x = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows], dtype=float)
    offset = np.zeros(len(x)) if prior is None else x @ np.array(prior[0]) + prior[1]
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([np.ones((len(x), 1)), (x - mu) / sd])
    w = np.zeros(z.shape[1])
    reg = l2 * np.eye(z.shape[1])
    reg[0, 0] = 0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(offset + z @ w)))
        grad = z.T @ (p - y) + reg @ w
        hess = (z.T * (p * (1 - p))) @ z + reg
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    coef = w[1:] / sd
    intercept = w[0] - float((coef * mu).sum())
    if prior is not None:
        coef, intercept = coef + np.array(prior[0]), intercept + prior[1]
    fitted = [float(c) for c in coef], float(intercept)
    base = float(y.mean())
    ll0 = base * np.log(base) + (1 - base) * np.log(1 - base)
    print(f"rows {len(rows)}, log-loss {log_loss(rows, *fitted):.4f} vs {-ll0:.4f} (constant)")
    return fitted


def fit_self_play(
    games: Callable[[int], list[Row]] | dict[str, Callable[[int], list[Row]]],
    names: Sequence[str],
    default_games: int,
    jobs: int,
    current: tuple[Sequence[float], float] | None = None,
) -> None:
    """The fitting scripts' command line: play ``--games`` self-play games (seeds 0, 1,
    ...) on ``--jobs`` processes (or read the rows ``--rows`` saved), fit, print each
    coefficient by name and the constants. ``games`` by name: the first is the default,
    ``--games-of`` picks another. With ``current`` constants: their log-loss on the
    last ``--holdout`` share of the rows (held out of the fit) beside the new fit's, and
    ``--prior`` fits corrections to them."""
    kinds = games if isinstance(games, dict) else {"self-play": games}
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=default_games)
    parser.add_argument("--jobs", type=int, default=jobs)
    parser.add_argument("--games-of", choices=list(kinds), default=next(iter(kinds)))
    parser.add_argument("--rows", type=Path, help="a JSON file: read if there, else saved")
    parser.add_argument("--holdout", type=float, default=0.0)
    parser.add_argument("--prior", action="store_true")
    parser.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args()
    if args.rows is not None and args.rows.exists():
        rows: list[Row] = [(x, y) for x, y in json.loads(args.rows.read_text())]
    else:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            played = pool.map(kinds[args.games_of], range(args.games), chunksize=20)
        rows = [r for g in played for r in g]
        if args.rows is not None:
            args.rows.write_text(json.dumps(rows))
    held = rows[len(rows) - int(len(rows) * args.holdout) :] if args.holdout else []
    rows = rows[: len(rows) - len(held)]
    coef, intercept = fit(rows, args.l2, prior=current if args.prior else None)
    if held and current is not None:
        print(f"held out {len(held)}: log-loss current {log_loss(held, *current):.4f}")
        print(f"held out {len(held)}: log-loss new {log_loss(held, coef, intercept):.4f}")
    for name, c in zip(names, coef, strict=True):
        print(f"  {name:10s} {c:+.4f}")
    print("COEF =", tuple(round(c, 4) for c in coef))
    print("INTERCEPT =", round(intercept, 4))


def main() -> None:
    names = [*NAMES, *SYNERGY, *(f"order{k}" for k in range(1, ORDER + 1))]
    games: dict[str, Callable[[int], list[Row]]] = {"heuristic": play, "search": play_search}
    fit_self_play(games, names, default_games=4000, jobs=2, current=(COEF, INTERCEPT))


if __name__ == "__main__":
    main()
