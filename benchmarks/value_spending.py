"""Does a position value prefer spending where the default policy spends?

For turns of self-play games (the ``search`` bot's default policy) that the policy
begins by spending right after the roll (a city, a settlement, a road, a development
card), both branches are played to the next turn start: the policy's whole turn, and the
turn ended at once (:func:`bots.builtin.search_value_branches.spending_checks`). For each
value model, by what the policy spent on first: how often it rates the policy's turn
above ending it (with a 95% Wilson interval) and the mean difference in the seat's win
share. A value that a search could compare whole turns by must prefer a city to its
cards in hand nearly always.

Usage: ``python benchmarks/value_spending.py --games 40 [--network weights.py]`` (a
weights module written by ``python -m bots.builtin.search_value_net_fit --out``).
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import sys
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.strength import wilson
from bots.builtin import search_value, search_value_net
from bots.builtin.search_value_branches import SpendingCheck, spending_checks
from engine.state import GameState

Value = Callable[[GameState], list[float]]
CHECKS_A_GAME = 6
SEED = 4_400_000
"""The first game's seed (games the landed fits did not play)."""


def network_value(path: Path) -> Value:
    """The value network of :mod:`bots.builtin.search_value_net` with the weights of
    the module at ``path``."""
    spec = importlib.util.spec_from_file_location("candidate_weights", path)
    assert spec is not None and spec.loader is not None
    weights = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(weights)
    network = search_value_net.Network(weights.HIDDEN, weights.HIDDEN_BIAS, weights.OUTPUT)

    def value(s: GameState) -> list[float]:
        return search_value_net.shares(search_value_net.value_features(s), network)

    return value


def tally(checks: list[SpendingCheck], value: Value) -> dict[str, tuple[int, int, float]]:
    """Per kind of first move: checks, how many the value prefers the policy's turn in,
    and the summed difference of the seat's share (policy's turn minus ended)."""
    out: dict[str, tuple[int, int, float]] = defaultdict(lambda: (0, 0, 0.0))
    for check in checks:
        diff = value(check.spent)[check.seat] - value(check.ended)[check.seat]
        n, preferred, total = out[check.spent_on]
        out[check.spent_on] = (n + 1, preferred + (diff > 0), total + diff)
    return dict(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--network", type=Path, action="append", default=[])
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        games = pool.map(partial(spending_checks, count=CHECKS_A_GAME), seeds)
    checks = [c for game in games for c in game]
    values: dict[str, Value] = {
        "linear (search_value)": search_value.win_share,
        "network (search_value_net)": search_value_net.win_share,
    }
    values |= {f"network {path.name}": network_value(path) for path in args.network}
    print(f"{len(checks)} spending turns of {args.games} self-play games (seeds {seeds.start}+)")
    print(
        f"{'value':34} {'first move':16} {'turns':>5} {'prefers the policy':>24} {'mean diff':>9}"
    )
    for name, value in values.items():
        for kind, (n, preferred, total) in sorted(tally(checks, value).items()):
            low, high = wilson(preferred, n)
            share = f"{preferred / n:6.1%} [{low:.1%}-{high:.1%}]"
            print(f"{name:34} {kind:16} {n:5} {share:>24} {total / n:+9.4f}")


if __name__ == "__main__":
    main()
