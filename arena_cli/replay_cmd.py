"""``catan-arena replay FILE``: re-simulate a replay, check it reproduces, summarise."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from arena_cli.output import error
from bots.protocol import clean_text
from engine.errors import ReplayError
from engine.replay import Replay, verify


def run_replay(file: str) -> int:
    path = Path(file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        error(f"cannot read {file}: {exc.__class__.__name__}: {exc}")
        return 1
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        error(f"{file} is not valid JSON (truncated?): {exc.msg} at line {exc.lineno}")
        return 1
    try:
        replay = Replay.from_dict(data)
        game = verify(replay)
    except ReplayError as exc:
        error(f"{file}: {exc}")
        return 1
    outcome = game.outcome
    console = Console(soft_wrap=True)  # a line per fact, never wrapped (a long path)
    names = {s.get("seat"): s.get("name", "?") for s in replay.seats}
    console.print(f"{file}: reproduces ({len(replay.steps)} steps, seed {replay.seed})")
    if outcome is None:
        console.print("game unfinished")
        return 0
    console.print(f"ended by {outcome.termination.label} after {outcome.turns} turns")
    standings = replay.meta.get("standings")
    forfeited: set[int] = set()
    placings, winner = list(outcome.placings), outcome.winner
    if isinstance(standings, dict):  # forfeited seats: placed last, never credited
        forfeited = set(standings.get("forfeited") or ())
        placings = list(standings.get("placings") or placings)
        winner = standings.get("winner")
    for seat, (points, place) in enumerate(zip(outcome.points, placings, strict=True)):
        mark = " winner" if winner == seat else ""
        if seat in forfeited:
            mark = " forfeited (its autopilot played on" + (
                ", and won: no win credited)" if outcome.winner == seat else ")"
            )
        name = escape(clean_text(str(names.get(seat, "?")), 64))
        console.print(f"  seat {seat} {name:>12}: {points} points, place {place}{mark}")
    return 0
