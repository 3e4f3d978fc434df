"""Strength benchmark: one candidate bot against three copies of an opponent bot.

Plays 4-player games with the candidate's seat rotated, every bot in its own process
(the same path as an uploaded bot), with a per-decision clock, and prints the win rate
with a 95% Wilson interval, mean points, decision times and faults. Games run in
parallel worker processes. The seeds are fresh unless ``--seed`` gives the first (it
then reproduces a run, or pairs two bots on the same games); the output names them.

Usage: ``python benchmarks/strength.py search heuristic --games 200 --decision-ms 100``.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena_runner import SeatDriver, SubprocessDriver, play_match
from bots.registry import resolve_bot
from engine import RulesConfig


@dataclass(frozen=True)
class GameRecord:
    seed: int
    seat: int
    won: bool
    points: int
    truncated: bool
    mean_decision_ms: float
    max_decision_ms: float
    cpu_ms: float
    bank_used: float
    faults: int


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


Job = tuple[str, str, int, float, bool]
"""One game: candidate, opponent, seed, seconds per decision, domestic trade on."""
DriverFactory = Callable[[str], SeatDriver]
"""A seat's driver for a bot spec (picklable: games run in worker processes)."""


def bot_driver(spec: str) -> SeatDriver:
    """A built-in name or a bot file in its own sandboxed process."""
    return SubprocessDriver(resolve_bot(spec))


def play_game(job: Job, driver: DriverFactory = bot_driver) -> GameRecord:
    candidate, opponent, seed, decision_s, trade = job
    seat = seed % 4
    bank = max(5.0, 20 * decision_s)
    specs = [opponent] * 4
    specs[seat] = candidate
    drivers = [driver(spec) for spec in specs]
    try:
        result = play_match(
            RulesConfig(domestic_trade=trade),
            seed,
            drivers,
            decision_timeout=decision_s,
            time_bank=bank,
            seat_names=specs,
        )
    finally:
        for seat_driver in drivers:
            seat_driver.close()
    outcome, stats = result.outcome, result.stats[seat]
    return GameRecord(
        seed=seed,
        seat=seat,
        won=result.winner == seat,  # a forfeited seat's autopilot win is no win
        points=outcome.points[seat],
        truncated=outcome.winner is None,
        mean_decision_ms=1000 * stats.mean,
        max_decision_ms=1000 * stats.max,
        cpu_ms=1000 * stats.cpu,
        bank_used=bank - stats.bank_left,
        faults=len(result.faults[seat]),
    )


def run(
    candidate: str,
    opponent: str,
    games: int,
    decision_ms: float,
    jobs: int,
    seed: int,
    trade: bool,
    driver: DriverFactory = bot_driver,
) -> dict[str, Any]:
    play = functools.partial(play_game, driver=driver)
    work = [(candidate, opponent, seed + i, decision_ms / 1000, trade) for i in range(games)]
    started = time.perf_counter()
    records: list[GameRecord] = []
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for i, record in enumerate(pool.imap_unordered(play, work), start=1):
            records.append(record)
            wins = sum(r.won for r in records)
            print(f"\r{i}/{games} games, {wins} wins", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wins = sum(r.won for r in records)
    low, high = wilson(wins, games)
    return {
        "candidate": candidate,
        "opponent": opponent,
        "games": games,
        "seed": seed,
        "decision_ms": decision_ms,
        "domestic_trade": trade,
        "wins": wins,
        "win_rate": wins / games,
        "ci95": [low, high],
        "mean_points": statistics.fmean(r.points for r in records),
        "truncated": sum(r.truncated for r in records),
        "mean_decision_ms": statistics.fmean(r.mean_decision_ms for r in records),
        "max_decision_ms": max(r.max_decision_ms for r in records),
        "mean_cpu_ms_per_game": statistics.fmean(r.cpu_ms for r in records),
        "max_bank_used_s": max(r.bank_used for r in records),
        "faults": sum(r.faults for r in records),
        "wins_by_seat": [sum(r.won for r in records if r.seat == s) for s in range(4)],
        "won_by_seed": [[r.seed, int(r.won)] for r in sorted(records, key=lambda r: r.seed)],
        "minutes": (time.perf_counter() - started) / 60,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidate")
    parser.add_argument("opponent")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--decision-ms", type=float, default=100.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: fresh)")
    parser.add_argument("--no-trade", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--save", type=Path, help="write the result here as JSON")
    args = parser.parse_args(argv)
    seed = secrets.randbits(48) if args.seed is None else args.seed
    result = run(
        args.candidate,
        args.opponent,
        args.games,
        args.decision_ms,
        args.jobs,
        seed,
        not args.no_trade,
    )
    low, high = result["ci95"]
    print(
        f"{args.candidate} vs 3x {args.opponent} ({args.decision_ms:g} ms/decision, "
        f"seeds {seed}+): "
        f"{result['wins']}/{args.games} wins = {result['win_rate']:.1%} "
        f"[95% CI {low:.1%}–{high:.1%}], mean points {result['mean_points']:.2f}, "
        f"wins by seat {result['wins_by_seat']}, decision mean {result['mean_decision_ms']:.1f} ms "
        f"max {result['max_decision_ms']:.0f} ms (wall), "
        f"CPU {result['mean_cpu_ms_per_game'] / 1000:.1f} s a game, "
        f"bank used at most {result['max_bank_used_s']:.2f} s, faults {result['faults']}, "
        f"{result['truncated']} truncated, {result['minutes']:.1f} min"
    )
    if args.json:
        print(json.dumps(result))
    if args.save is not None:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        args.save.write_text(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
