"""Paired in-process comparison of bot variants against three ``heuristic`` bots.

Each bot (a built-in name or a bot file; a variant file may patch a module constant of
the bot it subclasses) plays the same seeds, in its seat ``seed % 4``, in this process's
workers with no sandbox and no clock: a bot's ``clock`` and ``cpu_clock`` attributes,
where it has them, are frozen and its ``max_samples`` set, so its games are reproducible
and independent of the machine's load. Prints each bot's wins and, for every bot after
the first, the paired difference in win rate with a 95% interval. A tuning tool: the
figures that count are still the sandboxed ones of ``benchmarks/strength.py``. Results
are stored (:mod:`benchmarks.paired_store`, ``.cache/paired``): a baseline already played
by the same code on the same seeds is read back, not replayed.

Usage: ``python benchmarks/paired_inprocess.py search my_variant.py --games 1000``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.paired_store import Row, Store
from bots.builtin.heuristic import HeuristicPlayer
from bots.builtin.search_clock import make_reproducible
from bots.player import Player
from bots.registry import load_player_class
from engine import Game, RulesConfig

STORE = Path(__file__).resolve().parents[1] / ".cache" / "paired"
"""Where results are stored by default (git-ignored)."""
_candidate: type[Player] | None = None
_samples = 8


def _load(spec: str, samples: int) -> None:
    """Worker initializer: the candidate's class, loaded in the worker only (a variant
    file's patches stay in that pool)."""
    global _candidate, _samples
    _candidate, _samples = load_player_class(spec), samples


def play(seed: int) -> Row:
    """One game: (seed, 1 if the candidate won, its points)."""
    assert _candidate is not None
    seat = seed % 4
    players: list[Player] = [HeuristicPlayer(random.Random(seed * 7 + i)) for i in range(4)]
    candidate = _candidate(random.Random(seed * 7 + seat))
    make_reproducible(candidate, _samples)
    players[seat] = candidate
    game = Game.new(RulesConfig(), seed)
    while not game.is_over:
        decider = game.decider
        game.apply(players[decider].act(game.observe(decider)))
    outcome = game.outcome
    assert outcome is not None
    return seed, int(outcome.winner == seat), outcome.points[seat]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="+", help="the first is the baseline")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--samples", type=int, default=8, help="a bot's max_samples")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--store",
        type=Path,
        default=STORE,
        help="folder of stored results (games the same code played are not replayed)",
    )
    parser.add_argument("--no-store", action="store_true", help="play every game, store nothing")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    results: dict[str, list[Row]] = {}
    for spec in args.bots:
        started = time.perf_counter()
        store = None if args.no_store else Store(args.store, spec, args.samples)
        todo = list(seeds) if store is None else store.missing(seeds)
        played: list[Row] = []
        if todo:
            context = multiprocessing.get_context("fork")
            with context.Pool(args.jobs, _load, (spec, args.samples)) as pool:
                played = list(pool.imap_unordered(play, todo, chunksize=4))
        if store is not None:
            store.add(played)
            rows = store.take(seeds)
        else:
            rows = sorted(played)
        results[spec] = rows
        wins = sum(r[1] for r in rows)
        points = sum(r[2] for r in rows) / len(rows)
        print(
            f"{spec}: {wins}/{len(rows)} = {wins / len(rows):.1%}, mean points {points:.2f} "
            f"(seeds {args.seed}+, {len(seeds) - len(todo)} stored, "
            f"{time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    base = args.bots[0]
    for spec in args.bots[1:]:
        diffs = [a[1] - b[1] for a, b in zip(results[spec], results[base], strict=True)]
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)
        half = 1.96 * math.sqrt(var / len(diffs))
        print(f"{spec} - {base}: {mean:+.3f} wins a game, 95% interval ±{half:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
