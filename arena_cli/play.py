"""``catan-arena play``: a batch of games among bots, seats rotated, with a summary.

Every bot (built-ins too) runs in its own sandboxed process from a
:class:`~arena_runner.BotRunner` (the tier the host supports, failing closed below
``$CATAN_SANDBOX_MIN_TIER``; ``--sandbox-tier NONE`` for plain processes);
``--in-process`` runs trusted built-ins in this process instead (faster, no isolation).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from arena_cli.output import error, fitted_table
from arena_cli.position import Position, PositionError, load_position
from arena_runner import (
    BotRunner,
    Fault,
    InProcessDriver,
    MatchResult,
    SandboxUnavailable,
    SeatDriver,
    bot_seed,
    play_match,
    resolve_policy,
)
from bots.protocol import clean_text
from bots.registry import BUILTINS, BotLoadError, load_player_class, resolve_bot
from engine import BoardSetup, Game, RulesConfig
from engine.config import PLAYER_COUNTS
from engine.rng import new_seed


@dataclass
class BotTally:
    name: str
    games: int = 0
    wins: int = 0
    points: list[int] = field(default_factory=list)
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    defaults: int = 0
    forfeits: int = 0
    faults: list[tuple[int | str, Fault]] = field(default_factory=list)
    """(game seed, fault)."""


def game_seeds(seed: int | None, games: int) -> list[int | str]:
    """``seed + i`` for game i (reproducible), or fresh 128-bit seeds without ``seed``."""
    if seed is not None:
        return [seed + i for i in range(games)]
    return [new_seed() for _ in range(games)]


class SetupError(Exception):
    """The bots cannot be set up; the message says why."""


def run_play(args: argparse.Namespace) -> int:
    if len(args.bots) not in PLAYER_COUNTS:
        error("give 3 or 4 bots")
        return 2
    if args.games < 1:
        error("--games must be at least 1")
        return 2
    if args.timeout <= 0:
        error("--timeout must be positive")
        return 2
    args.start_position = None
    if getattr(args, "position", None):
        try:
            args.start_position = _position(args)
        except PositionError as exc:
            error(str(exc))
            return 2
        config = args.start_position.replay.config
        args.game_seeds = args.start_position.seeds(args.games, args.seed, args.reseed)
    elif getattr(args, "step", None) is not None:
        error("--step needs --from FILE")
        return 2
    else:
        config = _config(args)
        args.game_seeds = game_seeds(args.seed, args.games)
    drivers: list[SeatDriver] = []
    runner: BotRunner | None = None
    try:
        if not args.in_process:
            tier = getattr(args, "sandbox_tier", None)
            runner = BotRunner(resolve_policy(tier, trusted_local=tier is not None))
        _add_drivers(args, runner, drivers)
        _preflight(args, config, drivers)
        return _play_games(args, config, drivers, runner)
    except (BotLoadError, SetupError, SandboxUnavailable) as exc:
        error(str(exc))
        return 2
    finally:
        for driver in drivers:
            driver.close()
        if runner is not None:
            runner.close()


def _position(args: argparse.Namespace) -> Position:
    """The position of ``--from``/``--step``, checked against the other options."""
    position = load_position(args.position, args.step)
    players = position.replay.config.players
    if len(args.bots) != players:
        raise PositionError(f"the position is a {players}-player game: give {players} bots")
    if args.board or args.no_trade:
        raise PositionError("--board and --no-trade come from the position: drop them")
    return position


def _config(args: argparse.Namespace) -> RulesConfig:
    options: dict[str, Any] = {"players": len(args.bots)}
    if args.no_trade:
        options["domestic_trade"] = False
    if args.board:
        options["board"] = BoardSetup(args.board)
    return RulesConfig(**options)


def _add_drivers(
    args: argparse.Namespace, runner: BotRunner | None, drivers: list[SeatDriver]
) -> None:
    """Append one driver per bot to ``drivers`` (raises BotLoadError/SetupError)."""
    paths = [resolve_bot(spec) for spec in args.bots]
    labels = _labels(args.bots)
    if runner is not None:
        for path in paths:
            drivers.append(runner.driver(path))
        return
    trusted = {p.resolve() for p in BUILTINS.values()}
    for spec, path in zip(args.bots, paths, strict=True):
        if path.resolve() not in trusted:
            names = ", ".join(sorted(BUILTINS))
            raise SetupError(
                f"--in-process runs only the trusted built-in bots ({names}); {spec!r} is "
                "a bot file: drop --in-process to run it in its own process"
            )
    for spec, label in zip(args.bots, labels, strict=True):
        drivers.append(InProcessDriver(load_player_class(spec), label))


def _preflight(args: argparse.Namespace, config: RulesConfig, drivers: list[SeatDriver]) -> None:
    """Start every bot once on the first game's board so a broken bot is reported before
    any game is played (bot ``j`` sits in seat ``j`` in the first game)."""
    game = Game.new(config, args.game_seeds[0])
    for j, (spec, driver) in enumerate(zip(args.bots, drivers, strict=True)):
        observation = game.observe(j, with_legal=False)
        fault = driver.start(j, config, game.layout, bot_seed(args.game_seeds[0], j), observation)
        if fault is not None:
            raise SetupError(f"bot {spec!r} could not start: {fault.message}")


def _play_games(
    args: argparse.Namespace,
    config: RulesConfig,
    drivers: list[SeatDriver],
    runner: BotRunner | None,
) -> int:
    err = Console(stderr=True)
    replay_dir = _output_dir(args.replays, "--replays")
    log_dir = _output_dir(getattr(args, "logs", None), "--logs")
    # the names the bots gave themselves (Player.name, cleaned), else their file names
    labels = _labels(
        [clean_text(d.name, 64) or spec for d, spec in zip(drivers, args.bots, strict=True)]
    )
    tallies = [BotTally(label) for label in labels]
    ended: list[MatchResult] = []
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
        try:
            for i in range(args.games):
                result = _play_one(args, config, drivers, labels, tallies, i)
                ended.append(result)
                _save(result, args.game_seeds[i], replay_dir, log_dir, labels, i)
                progress.advance(task)
        except KeyboardInterrupt:
            err.print(f"interrupted: the table covers the {len(ended)} games played")
    if not ended:
        return 130
    args.games = len(ended)
    turns = [r.outcome.turns for r in ended]
    truncated = sum(r.outcome.winner is None for r in ended)
    runner_name = "in-process" if runner is None else f"sandbox {runner.tier.name}"
    summary = _summary(args, runner_name, tallies, turns, truncated)
    _print_table(Console(highlight=False), summary)  # the terminal's width; 80 when piped
    _print_faults(tallies)
    if args.json:
        sys.stdout.write(json.dumps(summary, sort_keys=True) + "\n")
    return 0 if len(ended) == len(args.game_seeds) else 130


def _play_one(
    args: argparse.Namespace,
    config: RulesConfig,
    drivers: list[SeatDriver],
    labels: list[str],
    tallies: list[BotTally],
    i: int,
) -> MatchResult:
    """Game ``i``: bot j sits in seat (j + i) % n (seats rotate; from a position bot j
    keeps seat j); tallied."""
    n = len(drivers)
    position: Position | None = getattr(args, "start_position", None)
    bot_at = [0] * n
    for j in range(n):
        bot_at[j if position else (j + i) % n] = j
    seed = args.game_seeds[i]
    result = play_match(
        config,
        seed,
        [drivers[bot_at[s]] for s in range(n)],
        decision_timeout=args.timeout,
        time_bank=getattr(args, "time_bank", 0.0),
        seat_names=[labels[bot_at[s]] for s in range(n)],
        start=position.game(seed) if position else None,
    )
    if position:
        result.replay.meta["from_step"] = position.step
    for seat in range(n):
        _tally(tallies[bot_at[seat]], result, seat, seed)
    result.replay.meta["bots"] = [labels[bot_at[s]] for s in range(n)]
    return result


def _save(
    result: MatchResult,
    seed: int | str,
    replay_dir: Path | None,
    log_dir: Path | None,
    labels: list[str],
    i: int,
) -> None:
    """The game's replay and each bot's log (what it printed), when asked for."""
    if replay_dir:
        path = replay_dir / f"game-{seed}.json"
        path.write_text(json.dumps(result.replay.to_dict(), separators=(",", ":")))
    if log_dir:
        for seat, log in enumerate(result.logs):
            if log:
                name = result.replay.meta["bots"][seat]
                safe = "".join(c if c.isalnum() or c in "-_#" else "_" for c in name)
                (log_dir / f"game-{i + 1:03d}-seat{seat}-{safe}.log").write_text(log)


def _output_dir(value: str | None, flag: str) -> Path | None:
    """A directory to write into (created), or SetupError naming the flag."""
    if not value:
        return None
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise SetupError(f"{flag} {value}: exists and is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SetupError(f"{flag} {value}: {exc.strerror}") from None
    return path


def _tally(tally: BotTally, result: MatchResult, seat: int, seed: int | str) -> None:
    outcome, stats = result.outcome, result.stats[seat]
    tally.games += 1
    tally.wins += result.winner == seat  # never the autopilot's win of a forfeited seat
    tally.points.append(outcome.points[seat])
    tally.decisions += stats.decisions
    tally.seconds += stats.total
    tally.slowest = max(tally.slowest, stats.max)
    tally.defaults += stats.defaults
    tally.forfeits += seat in result.forfeited
    tally.faults.extend((seed, fault) for fault in result.faults[seat])


def _labels(specs: list[str]) -> list[str]:
    labels = [Path(s).stem if s.endswith(".py") else s for s in specs]
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if labels.count(label) == 1 else f"{label}#{seen[label]}")
    return out


def _summary(
    args: argparse.Namespace,
    runner: str,
    tallies: list[BotTally],
    turns: list[int],
    truncated: int,
) -> dict[str, Any]:
    return {
        "games": args.games,
        "seed": args.seed if args.seed is not None else "fresh 128-bit seeds",
        "runner": runner,
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
                "faults": len(t.faults),
                "defaults": t.defaults,
                "forfeits": t.forfeits,
            }
            for t in tallies
        ],
    }


def _print_table(console: Console, summary: dict[str, Any]) -> None:
    console.print(
        f"{summary['games']} games ({summary['runner']}), seed {summary['seed']}, "
        f"mean length {summary['mean_turns']} turns, {summary['truncated']} hit the turn cap"
    )
    table = fitted_table(
        ("bot", "wins", "win rate", "mean points", "decisions", "mean ms", "max ms", "faults")
    )
    for row in summary["bots"]:
        table.add_row(
            escape(row["bot"]),  # a name is the author's text: never rich markup
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{row['mean_points']:.2f}",
            str(row["decisions"]),
            f"{row['mean_decision_ms']:.3f}",
            f"{row['max_decision_ms']:.1f}",
            str(row["faults"]),
        )
    console.print(table)


def _print_faults(tallies: list[BotTally]) -> None:
    """One line per faulty bot on stderr: counts by kind and the first fault."""
    for tally in tallies:
        if not tally.faults:
            continue
        kinds = Counter(fault.kind.value for _, fault in tally.faults)
        counts = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
        seed, first = tally.faults[0]
        forfeits = f", forfeited {tally.forfeits} games" if tally.forfeits else ""
        sys.stderr.write(
            f"{tally.name}: {len(tally.faults)} faults ({counts}{forfeits}); first in game {seed} "
            f"at step {first.step}: {first.kind.value}: {first.message}\n"
        )
