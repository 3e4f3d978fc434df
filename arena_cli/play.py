"""``catan-arena play``: a batch of games among bots, seats rotated, with a summary."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from arena_cli.output import error
from bots.local import play_local_game, seeded_rng
from bots.registry import BotLoadError, load_player_class
from engine import BoardSetup, RulesConfig
from engine.replay import record


@dataclass
class BotTally:
    name: str
    games: int = 0
    wins: int = 0
    points: list[int] = field(default_factory=list)
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0


def run_play(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    if len(args.bots) not in (3, 4):
        error("give 3 or 4 bots")
        return 2
    if args.games < 1:
        error("--games must be at least 1")
        return 2
    try:
        classes = [load_player_class(spec) for spec in args.bots]
    except BotLoadError as exc:
        error(str(exc))
        return 2
    options: dict[str, Any] = {"players": len(args.bots)}
    if args.no_trade:
        options["domestic_trade"] = False
    if args.board:
        options["board"] = BoardSetup(args.board)
    config = RulesConfig(**options)
    replay_dir = Path(args.replays) if args.replays else None
    if replay_dir:
        replay_dir.mkdir(parents=True, exist_ok=True)

    labels = _labels(args.bots)
    tallies = [BotTally(label) for label in labels]
    turns: list[int] = []
    truncated = 0
    n = len(classes)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("playing", total=args.games)
        for i in range(args.games):
            seed = args.seed + i
            # Rotate seats: in game i, bot j sits in seat (j + i) % n.
            seat_of = [(j + i) % n for j in range(n)]
            bot_at = [0] * n
            for j, seat in enumerate(seat_of):
                bot_at[seat] = j
            players = [classes[bot_at[s]](seeded_rng(seed, s)) for s in range(n)]
            result = play_local_game(config, seed, players)
            outcome = result.outcome
            turns.append(outcome.turns)
            truncated += outcome.winner is None
            for seat in range(n):
                tally = tallies[bot_at[seat]]
                tally.games += 1
                tally.wins += outcome.winner == seat
                tally.points.append(outcome.points[seat])
                timing = result.timings[seat]
                tally.decisions += timing.decisions
                tally.seconds += timing.seconds
                tally.slowest = max(tally.slowest, timing.slowest)
            if replay_dir:
                seats = tuple({"seat": s, "name": labels[bot_at[s]]} for s in range(n))
                doc = record(result.game, seats)
                path = replay_dir / f"game-{seed}.json"
                path.write_text(json.dumps(doc.to_dict(), separators=(",", ":")))
            progress.advance(task)

    summary = _summary(args, tallies, turns, truncated)
    _print_table(Console(), summary)
    if args.json:
        sys.stdout.write(json.dumps(summary, sort_keys=True) + "\n")
    return 0


def _labels(specs: list[str]) -> list[str]:
    labels = [Path(s).stem if s.endswith(".py") else s for s in specs]
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if labels.count(label) == 1 else f"{label}#{seen[label]}")
    return out


def _summary(
    args: argparse.Namespace, tallies: list[BotTally], turns: list[int], truncated: int
) -> dict[str, Any]:
    return {
        "games": args.games,
        "seed": args.seed,
        "mean_turns": round(statistics.fmean(turns), 2),
        "truncated": truncated,
        "bots": [
            {
                "bot": t.name,
                "games": t.games,
                "wins": t.wins,
                "win_rate": round(t.wins / t.games, 4),
                "mean_points": round(statistics.fmean(t.points), 3),
                "decisions": t.decisions,
                "mean_decision_ms": round(1000 * t.seconds / max(1, t.decisions), 4),
                "max_decision_ms": round(1000 * t.slowest, 3),
            }
            for t in tallies
        ],
    }


def _print_table(console: Console, summary: dict[str, Any]) -> None:
    table = Table(
        title=f"{summary['games']} games, seed {summary['seed']}, "
        f"mean length {summary['mean_turns']} turns, {summary['truncated']} hit the turn cap"
    )
    for column in ("bot", "wins", "win rate", "mean points", "decisions", "ms/decision"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in summary["bots"]:
        table.add_row(
            row["bot"],
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{row['mean_points']:.2f}",
            str(row["decisions"]),
            f"{row['mean_decision_ms']:.3f}",
        )
    console.print(table)
