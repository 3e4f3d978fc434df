"""Offline fit of the value network of :mod:`bots.builtin.search_value_net` (helpers only).

``python -m bots.builtin.search_value_net_fit --games 24000 --jobs 2`` plays self-play games
of the ``search`` bot's default policy (game seeds 0, 1, ...), records every seat's value
features at up to :data:`POSITIONS` turn starts drawn at random in each game and the
winner, fits a network with one hidden layer that scores each seat, trained on the
winner's share (a softmax over the seats' scores; numpy, Adam, reproducible from
``--seed``), prints the held-out log-loss of the winner's share (the last
:data:`HOLDOUT` of the games) beside the current model's and writes the weights module
(``--out``). ``--positions FILE`` keeps the played positions (read if the file exists).
``--branches K`` adds, per game, up to K off-policy positions (each fitted
``--branch-weight`` times): turns the policy began by spending, ended at once instead and
played on to the end (:func:`bots.builtin.search_value_branches.branches`); the held-out
log-loss is measured on the on-policy positions only, so it compares with the current
model's.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import textwrap
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from bots.builtin.search_value_branches import branches
from bots.builtin.search_value_fit import turn_starts
from bots.builtin.search_value_net import NETWORK, Network, shares, value_features

__all__ = ["Network", "Position", "fit", "log_loss", "main", "module_text", "play"]

POSITIONS = 8
"""Turn starts recorded per game (drawn at random among those seen)."""
RECORD_CHANCE = 0.1
"""Chance that a turn start is seen (so the recorded ones spread over the game)."""
HOLDOUT = 0.15
"""Share of the games (the last ones) held out of the fit to measure it."""
OUT = Path(__file__).with_name("search_value_net_model.py")

Position = tuple[list[list[float]], int]
"""Every seat's value features at a turn start, and the seat that went on to win."""


def play(seed: int) -> list[Position]:
    """One self-play game of the default policy: its recorded positions."""
    rng = random.Random(seed)
    seen, winner = turn_starts(seed, seed + 5_000_000, RECORD_CHANCE, rng, value_features)
    if winner is None or not seen:
        return []
    return [(f, winner) for f in rng.sample(seen, min(POSITIONS, len(seen)))]


def play_with_branches(seed: int, count: int) -> tuple[list[Position], list[Position]]:
    """One self-play game's on-policy positions (:func:`play`) and up to ``count``
    off-policy ones from the same game (:func:`branches`)."""
    return play(seed), branches(seed, seed + 5_000_000, count, value_features)


def fit(
    positions: Sequence[Position],
    hidden: int = 16,
    steps: int = 4000,
    seed: int = 0,
    rate: float = 0.01,
    l2: float = 1e-4,
    batch: int = 4096,
) -> Network:
    """Fit the seat scorer on the winner's share by minibatch Adam (inputs standardized
    for the fit, the scaling then folded into the first layer's weights)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    x = np.array([f for f, _ in positions], dtype=float)  # positions, seats, features
    y = np.zeros(x.shape[:2])
    y[np.arange(len(x)), [w for _, w in positions]] = 1.0
    flat = x.reshape(-1, x.shape[2])
    mu, sd = flat.mean(axis=0), flat.std(axis=0) + 1e-9
    z = (x - mu) / sd
    width = z.shape[2]
    params = {
        "w1": rng.normal(0.0, 1 / math.sqrt(width), (width, hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0.0, 1 / math.sqrt(hidden), hidden),
    }
    first = {k: np.zeros_like(v) for k, v in params.items()}
    second = {k: np.zeros_like(v) for k, v in params.items()}
    for t in range(1, steps + 1):
        rows = rng.integers(0, len(z), batch)
        zb, yb = z[rows], y[rows]
        h = np.tanh(zb @ params["w1"] + params["b1"])
        scores = h @ params["w2"]
        p = np.exp(scores - scores.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        g = (p - yb) / batch
        dh = g[..., None] * params["w2"] * (1 - h**2)
        grads = {
            "w2": np.einsum("bn,bnh->h", g, h) + l2 * params["w2"],
            "w1": np.einsum("bnd,bnh->dh", zb, dh) + l2 * params["w1"],
            "b1": dh.sum(axis=(0, 1)),
        }
        for k, grad in grads.items():
            first[k] = 0.9 * first[k] + 0.1 * grad
            second[k] = 0.999 * second[k] + 0.001 * grad**2
            step = first[k] / (1 - 0.9**t) / (np.sqrt(second[k] / (1 - 0.999**t)) + 1e-8)
            params[k] -= rate * step
    w1 = params["w1"] / sd[:, None]
    b1 = params["b1"] - mu @ w1
    return Network(w1.T.tolist(), b1.tolist(), params["w2"].tolist())


def log_loss(positions: Sequence[Position], network: Network) -> float:
    """Mean log-loss of the winner's share."""
    total = 0.0
    for features, winner in positions:
        total -= math.log(shares(features, network)[winner])
    return total / len(positions)


def _numbers(values: Sequence[float], indent: str) -> str:
    """A tuple literal of ``values`` (5 decimals), wrapped under 100 columns."""
    body = textwrap.fill(
        ", ".join(repr(round(v, 5)) for v in values),
        width=96,
        initial_indent=indent + "    ",
        subsequent_indent=indent + "    ",
    )
    return f"(\n{body},\n{indent})"


def module_text(network: Network, note: str) -> str:
    """The weights module's source."""
    hidden = "".join(f"    {_numbers(row, '    ')},\n" for row in network.hidden)
    return (
        '"""Weights of the value network of :mod:`bots.builtin.search_value_net`, written by\n'
        f'``python -m bots.builtin.search_value_net_fit`` ({note})."""\n\n'
        "# fmt: off\n"
        f"HIDDEN: tuple[tuple[float, ...], ...] = (\n{hidden})\n"
        f"HIDDEN_BIAS: tuple[float, ...] = {_numbers(network.hidden_bias, '')}\n"
        f"OUTPUT: tuple[float, ...] = {_numbers(network.output, '')}\n"
        "# fmt: on\n"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=24_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="the fit's random seed")
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--positions", type=Path, help="a JSON file: read if there, else saved")
    parser.add_argument("--branches", type=int, default=0, help="off-policy positions a game")
    parser.add_argument("--branch-weight", type=int, default=1, help="copies of each in the fit")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.positions is not None and args.positions.exists():
        games, off = json.loads(args.positions.read_text())
    else:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            task = partial(play_with_branches, count=args.branches)
            games, off = map(
                list, zip(*pool.map(task, range(args.games), chunksize=50), strict=True)
            )
        if args.positions is not None:
            args.positions.write_text(json.dumps([games, off]))
    cut = len(games) - int(len(games) * HOLDOUT)
    train = [(f, w) for game in games[:cut] for f, w in game]
    train += [(f, w) for game in off[:cut] for f, w in game] * args.branch_weight
    held = [(f, w) for game in games[cut:] for f, w in game]
    network = fit(train, args.hidden, args.steps, args.seed)
    print(
        f"positions: {len(train)} fitted (off-policy: {len(train) - sum(map(len, games[:cut]))}),"
        f" {len(held)} held out"
    )
    print("held-out log-loss of the winner's share:")
    print(
        f"  new {log_loss(held, network):.4f}, current {log_loss(held, NETWORK):.4f},"
        f" equal shares {math.log(4):.4f}"
    )
    note = f"{len(games)} games, {len(train)} positions, seed {args.seed}"
    if args.branches:
        note += f", up to {args.branches} off-policy a game, weight {args.branch_weight}"
    args.out.write_text(module_text(network, note))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
