"""``make bench-trust``: how far can the ratings be trusted? A simulation, not a test.

Bots of known strength play Catan-like games (luck dominates a single game) and the
platform's own rating code rates them:

* **Ladder.** ``--bots`` bots, tables of 4 made like the matchmaker (fewest games first,
  random among equals). After N games per bot: the Spearman rank correlation with the
  true order of the ladder Elo (provisional K, games applied in order), constant-K Elo,
  OpenSkill μ and the Plackett–Luce fit.
* **Duplicate vs plain.** 8 bots, the round-robin schedule at equal game budgets: plain
  (every game fresh luck) against duplicate (the rotations of a grouping share the
  seat luck: the same board and dice from every seat). How often the Plackett–Luce fit
  orders all 8 exactly, and its mean Spearman.

Model of one game: each seat's performance is ``skill + seat luck + game noise`` (seat
luck: where the board and dice favour that seat; game noise: how the game went), both
standard normal; places follow performance. Skills are evenly spaced over each of
``--spreads`` (1.0: the best bot wins twice as often as the worst, close bots; 2.0: 4.4
times; the built-in heuristic against random is a far larger gap). The run prints this
calibration.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from scipy.stats import spearmanr

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from catan_arena.ratings.strength import GameResult, plackett_luce  # noqa: E402
from catan_arena.ratings.systems import (  # noqa: E402
    EloConfig,
    elo_deltas,
    openskill_start,
    openskill_update,
)
from catan_arena.tournaments.scheduling import Entry, round_robin  # noqa: E402

LADDER = EloConfig()
CONSTANT_K = EloConfig(provisional_games=0, settle_games=0)
SYSTEMS = ("ladder Elo", "constant-K Elo", "OpenSkill μ", "Plackett–Luce")


@dataclass(frozen=True)
class World:
    skills: np.ndarray
    rng: np.random.Generator

    def play(self, seats: Sequence[int], seat_luck: np.ndarray | None = None) -> list[int]:
        """Placings (1 = best) of the bots in ``seats``."""
        luck = self.rng.normal(size=len(seats)) if seat_luck is None else seat_luck
        performance = self.skills[list(seats)] + luck + self.rng.normal(size=len(seats))
        order = np.argsort(-performance)
        places = [0] * len(seats)
        for place, seat in enumerate(order, 1):
            places[int(seat)] = place
        return places


def world(bots: int, spread: float, seed: int) -> World:
    return World(np.linspace(0.0, spread, bots), np.random.default_rng(seed))


def spearman(estimate: Sequence[float], truth: Sequence[float]) -> float:
    return float(spearmanr(estimate, truth).statistic)


def calibration(spread: float, seed: int, games: int = 20000) -> tuple[float, float]:
    """Win rates of the best and the worst of 16 bots at random tables of 4."""
    w = world(16, spread, seed)
    rng = random.Random(seed)
    wins, played = [0] * 16, [0] * 16
    for _ in range(games):
        table = rng.sample(range(16), 4)
        for bot, place in zip(table, w.play(table), strict=True):
            played[bot] += 1
            wins[bot] += place == 1
    return wins[15] / played[15], wins[0] / played[0]


def ladder_trial(
    bots: int, checkpoints: Sequence[int], spread: float, seed: int
) -> dict[int, dict[str, float]]:
    """One ladder run: each system's Spearman at each checkpoint (games per bot)."""
    w = world(bots, spread, seed)
    rng = random.Random(seed)
    elo = {"ladder": [LADDER.start] * bots, "constant": [CONSTANT_K.start] * bots}
    skill = [openskill_start()] * bots
    games = [0] * bots
    history: list[GameResult] = []
    out: dict[int, dict[str, float]] = {}
    truth = list(w.skills)
    for target in sorted(checkpoints):
        while min(games) < target:
            table = sorted(range(bots), key=lambda b: (games[b], rng.random()))[:4]
            rng.shuffle(table)
            places = w.play(table)
            for name, config in (("ladder", LADDER), ("constant", CONSTANT_K)):
                before = [elo[name][b] for b in table]
                deltas = elo_deltas(before, places, [games[b] for b in table], config=config)
                for bot, delta in zip(table, deltas, strict=True):
                    elo[name][bot] += delta
            updated = openskill_update([skill[b] for b in table], places)
            for bot, rating in zip(table, updated, strict=True):
                skill[bot] = rating
                games[bot] += 1
            history.append(dict(zip(table, places, strict=True)))
        fit = plackett_luce(list(range(bots)), history)
        out[target] = {
            "ladder Elo": spearman(elo["ladder"], truth),
            "constant-K Elo": spearman(elo["constant"], truth),
            "OpenSkill μ": spearman([mu for mu, _ in skill], truth),
            "Plackett–Luce": spearman([fit[b] for b in range(bots)], truth),
        }
    return out


def format_trial(cycles: int, duplicate: bool, spread: float, seed: int) -> tuple[float, bool]:
    """One 8-bot round robin: the fit's Spearman, and whether it ordered all 8 right."""
    bots = 8
    w = world(bots, spread, seed)
    schedule = round_robin([Entry(i, i) for i in range(bots)], cycles=cycles)
    luck: dict[int, np.ndarray] = {}
    games: list[GameResult] = []
    for table in schedule.tables:
        seat_luck = None
        if duplicate:  # the seat's luck stays with the seat across the rotations
            seat_luck = luck.setdefault(table.grouping, w.rng.normal(size=len(table.seats)))
        places = w.play(table.seats, seat_luck)
        games.append(dict(zip(table.seats, places, strict=True)))
    fit = plackett_luce(list(range(bots)), games)
    estimate = [fit[b] for b in range(bots)]
    exact = sorted(range(bots), key=lambda b: estimate[b]) == list(range(bots))
    return spearman(estimate, list(w.skills)), exact


def run(label: str, trials: int, job: Callable[[int], object], console: Console) -> list[object]:
    results = []
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(label, total=trials)
        for trial in range(trials):
            results.append(job(trial))
            bar.advance(task)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bots", type=int, default=16)
    parser.add_argument("--games", default="50,100,200,400", help="games per bot checkpoints")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument(
        "--spreads", default="1,2", help="fields to simulate: best minus worst skill, each"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="5 trials, up to 200 games")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)
    checkpoints = [int(g) for g in args.games.split(",")]
    trials = args.trials
    if args.quick:
        trials, checkpoints = 5, [g for g in checkpoints if g <= 200]
    console = Console(highlight=False, width=200 if args.markdown else None)
    started = time.perf_counter()
    for spread in (float(x) for x in args.spreads.split(",")):
        simulate(args.bots, checkpoints, trials, spread, args.seed, args.markdown, console)
    console.print(f"{time.perf_counter() - started:.0f} s")
    return 0


def simulate(
    bots: int,
    checkpoints: Sequence[int],
    trials: int,
    spread: float,
    seed: int,
    markdown: bool,
    console: Console,
) -> None:
    """Both experiments for one field."""
    best, worst = calibration(spread, seed)
    console.print(
        f"\n## Field: skills evenly spread over {spread} (luck: seat + game, each sd 1): "
        f"the best wins {best:.0%} of its tables of 4, the worst {worst:.0%} "
        f"(ratio {best / worst:.1f})"
    )

    def ladder_job(trial: int) -> object:
        return ladder_trial(bots, checkpoints, spread, seed * 1000 + trial)

    ladder_runs = run("ladder", trials, ladder_job, console)
    rows = []
    for n in checkpoints:
        cells = []
        for system in SYSTEMS:
            values = [r[n][system] for r in ladder_runs]  # type: ignore[index]
            cells.append(f"{statistics.mean(values):.3f} (min {min(values):.2f})")
        rows.append((str(n), *cells))
    show(
        f"{bots} bots on the ladder: Spearman with the true order, mean of {trials} trials",
        ("games per bot", *SYSTEMS),
        rows,
        markdown,
        console,
    )
    format_rows = []
    for cycles in (1, 2, 4):
        summary = []
        for duplicate in (False, True):

            def format_job(trial: int, cycles: int = cycles, duplicate: bool = duplicate) -> object:
                return format_trial(cycles, duplicate, spread, seed * 7919 + trial)

            runs = run("formats", trials * 10, format_job, console)
            rhos = [r[0] for r in runs]  # type: ignore[index]
            exact = sum(bool(r[1]) for r in runs) / len(runs)  # type: ignore[index]
            summary.append(f"{statistics.mean(rhos):.3f} / {exact:.0%}")
        per_bot = len(round_robin([Entry(i, i) for i in range(8)], cycles=cycles).tables) // 2
        format_rows.append((str(per_bot), *summary))
    show(
        f"8 bots, Plackett–Luce fit: mean Spearman / share ordered exactly ({trials * 10} trials)",
        ("games per bot", "plain round robin", "duplicate round robin"),
        format_rows,
        markdown,
        console,
    )


def show(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    markdown: bool,
    console: Console,
) -> None:
    if markdown:
        console.print(f"\n**{title}**\n")
        console.print("| " + " | ".join(header) + " |")
        console.print("|" + "---|" * len(header))
        for row in rows:
            console.print("| " + " | ".join(row) + " |")
        return
    table = Table(title=title)
    for column in header:
        table.add_column(column, justify="right")
    for row in rows:
        table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    raise SystemExit(main())
