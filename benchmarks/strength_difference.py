"""Whether one strength run is clearly above another: the difference of two win rates
saved by ``benchmarks/strength.py --save`` with its 95% interval (Newcombe's hybrid
score interval, built from each rate's Wilson interval).

"Clearly above" means the interval's lower end is above zero. ``make bench-strength``
uses it for issue 22's "the 1 s clock clearly above its own 100 ms figure".

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
    p0, p1 = base_wins / base_games, wins / games
    low0, high0 = wilson(base_wins, base_games)
    low1, high1 = wilson(wins, games)
    delta = p1 - p0
    low = delta - math.sqrt((p1 - low1) ** 2 + (high0 - p0) ** 2)
    high = delta + math.sqrt((high1 - p1) ** 2 + (p0 - low0) ** 2)
    return delta, low, high


def describe(base: dict[str, Any], other: dict[str, Any]) -> str:
    """One line: the two runs, the difference, its interval and the verdict."""
    delta, low, high = difference_interval(
        base["wins"], base["games"], other["wins"], other["games"]
    )
    verdict = "clearly above" if low > 0 else "clearly below" if high < 0 else "not clearly above"
    return (
        f"{other['candidate']} at {other['decision_ms']:g} ms ({other['wins']}/{other['games']}) "
        f"minus at {base['decision_ms']:g} ms ({base['wins']}/{base['games']}): "
        f"{delta * 100:+.1f} points [95% CI {low * 100:+.1f} to {high * 100:+.1f}]: {verdict}"
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
