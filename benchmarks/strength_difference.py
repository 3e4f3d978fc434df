"""Whether one strength run is clearly above another: the difference of two win rates
saved by ``benchmarks/strength.py --save`` with its 95% interval, built from each rate's
Wilson interval (Newcombe's square-and-add intervals, 1998).

Two runs that played the same seeds (``--seed``: the same boards, seats, dice streams
and opponents' seeds) are compared game by game: the paired interval (Newcombe 1998b,
method 10) counts the correlation between the two runs' results on each seed, so a
difference is judged on what the runs did differently, not on how the seeds fell. Runs
on different seeds are compared as independent samples (Newcombe 1998a, method 10).

"Clearly above" means the interval's lower end is above zero. ``make bench-strength``
uses it for issue 22's "the 1 s clock clearly above its own 100 ms figure", both clocks
on the same fresh seeds.

Usage: ``python benchmarks/strength_difference.py BASE.json OTHER.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.strength import wilson


def difference_interval(
    base_wins: int, base_games: int, wins: int, games: int
) -> tuple[float, float, float]:
    """``wins/games - base_wins/base_games`` and its 95% interval (Newcombe 1998, method
    10: the hybrid score interval from the two Wilson intervals)."""
    return _square_and_add((base_wins, base_games), (wins, games), 0.0)


def _square_and_add(
    base: tuple[int, int], other: tuple[int, int], phi: float
) -> tuple[float, float, float]:
    """``other``'s win rate minus ``base``'s (each as wins, games) and its 95% interval:
    the two Wilson intervals' distances squared and added, less their correlation
    ``phi`` (0 for independent runs)."""
    p0, p1 = base[0] / base[1], other[0] / other[1]
    low0, high0 = wilson(*base)
    low1, high1 = wilson(*other)
    delta = p1 - p0
    below = (p1 - low1) ** 2 + (high0 - p0) ** 2 - 2 * phi * (p1 - low1) * (high0 - p0)
    above = (high1 - p1) ** 2 + (p0 - low0) ** 2 - 2 * phi * (high1 - p1) * (p0 - low0)
    return delta, delta - math.sqrt(below), delta + math.sqrt(above)


def paired_difference_interval(
    both: int, other_only: int, base_only: int, neither: int
) -> tuple[float, float, float]:
    """The difference of two win rates on the same games (``other - base``) and its 95%
    interval from the paired table: games both runs won, only the other won, only the
    base won, neither won (Newcombe 1998b, method 10: the Wilson intervals of the two
    rates, squared and added with the correlation of the two runs' results)."""
    games = both + other_only + base_only + neither
    margins = (
        (both + other_only) * (base_only + neither) * (both + base_only) * (other_only + neither)
    )
    phi = 0.0  # the correlation of the two runs' results, a positive one less half a game
    if margins:
        cross = both * neither - other_only * base_only
        phi = (cross - games / 2 if cross > games / 2 else min(cross, 0)) / math.sqrt(margins)
    return _square_and_add((both + base_only, games), (both + other_only, games), phi)


def paired_table(base: dict[str, Any], other: dict[str, Any]) -> tuple[int, int, int, int] | None:
    """The paired table of two runs that played exactly the same seeds, else None."""
    base_games, other_games = base.get("won_by_seed"), other.get("won_by_seed")
    if not base_games or not other_games:
        return None
    base_won, other_won = dict(map(tuple, base_games)), dict(map(tuple, other_games))
    if base_won.keys() != other_won.keys():
        return None
    table = [0, 0, 0, 0]
    for seed, won in other_won.items():
        table[(0 if won else 2) + (0 if base_won[seed] else 1)] += 1
    both, other_only, base_only, neither = table
    return both, other_only, base_only, neither


def describe(base: dict[str, Any], other: dict[str, Any]) -> str:
    """One line: the two runs, the difference, its interval and the verdict."""
    table = paired_table(base, other)
    if table is None:
        delta, low, high = difference_interval(
            base["wins"], base["games"], other["wins"], other["games"]
        )
        design = "independent samples"
    else:
        delta, low, high = paired_difference_interval(*table)
        both, other_only, base_only, _ = table
        only_other, only_base = f"{other['decision_ms']:g} ms", f"{base['decision_ms']:g} ms"
        design = (
            f"paired on the same {sum(table)} seeds: both won {both}, "
            f"only {only_other} {other_only}, only {only_base} {base_only}"
        )
    verdict = "clearly above" if low > 0 else "clearly below" if high < 0 else "not clearly above"
    return (
        f"{other['candidate']} at {other['decision_ms']:g} ms ({other['wins']}/{other['games']}) "
        f"minus at {base['decision_ms']:g} ms ({base['wins']}/{base['games']}): "
        f"{delta * 100:+.1f} points [95% CI {low * 100:+.1f} to {high * 100:+.1f}] "
        f"({design}): {verdict}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="a result saved by strength.py --save")
    parser.add_argument("other", type=Path)
    args = parser.parse_args(argv)
    runs = []
    for path in (args.base, args.other):
        try:
            runs.append(json.loads(path.read_text()))
        except (OSError, ValueError) as exc:
            parser.error(f"{path}: {exc}")
    print(describe(*runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
