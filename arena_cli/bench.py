"""``catan-arena bench`` (what ``make bench`` runs): engine speed figures, then the
side-by-side comparison with catanatron (benchmarks/vs_catanatron.py)."""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.table import Table

from arena_cli.output import table_console
from engine.perf import memory_profile, micro_benchmarks, play_random_games, summarise

COMPARISON_SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "vs_catanatron.py"


def _load_comparison() -> ModuleType | None:
    if not COMPARISON_SCRIPT.is_file():
        return None
    spec = importlib.util.spec_from_file_location("vs_catanatron", COMPARISON_SCRIPT)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compare_with_head(module: ModuleType, args: argparse.Namespace, console: Any) -> Any:
    """The same comparison with catanatron's current source, where a checkout of it is
    (``module.HEAD_SOURCE``); its summary, or why there is none."""
    source = module.HEAD_SOURCE
    if not module.is_checkout(source):
        console.print(f"[dim]no catanatron checkout in {source}: its source not compared[/]")
        return {"skipped": f"no checkout in {source}"}
    say = lambda m: console.print(f"[dim]{m}[/]")  # noqa: E731
    try:
        python = module.ensure_source_venv(module.HEAD_VENV, source, log=say)
        comparison = module.run_comparison(args.games, args.repeats, log=say, python=python)
    except module.BenchmarkError as exc:
        console.print(f"[red]comparison with catanatron's source failed:[/] {exc}")
        return {"error": str(exc)}
    console.print(f"[bold]catanatron from its source ({source}):[/]")
    module.print_table(comparison)
    return comparison["summary"]


def run_bench(args: argparse.Namespace) -> int:
    console = table_console(stderr=args.json)
    results: dict[str, Any] = {}
    module = _load_comparison()
    if module is None:
        console.print(f"[red]the comparison script is missing:[/] {COMPARISON_SCRIPT}")
        return 2
    if args.games is None:
        args.games = module.DEFAULT_GAMES

    console.print(f"[bold]Engine:[/] {args.repeats} x {args.games} random 4-player games")
    rates, per_game, per_decision = [], [], []
    for repeat in range(args.repeats):
        stats = play_random_games(args.games, seed=1000 * repeat)
        rates.append(stats.games / stats.seconds)
        per_game.append(stats.decisions / stats.games)
        per_decision.append(stats.seconds / stats.decisions * 1e6)
    results["games_per_second"] = summarise(rates)
    results["decisions_per_game"] = summarise(per_game)
    results["us_per_decision"] = summarise(per_decision)
    micro = [micro_benchmarks(samples=100, repeat=10, seed=r) for r in range(args.repeats)]
    for key in micro[0]:
        results[key] = summarise([m[key] for m in micro])
    results["memory"] = memory_profile(games=200)

    table = Table(title="catan-arena engine (one core, random players, per-seat observations)")
    for column in ("metric", "min", "median", "max"):
        table.add_column(column, justify="left" if column == "metric" else "right")
    for key, label in (
        ("games_per_second", "games / second"),
        ("decisions_per_game", "decisions / game"),
        ("us_per_decision", "µs / decision (whole loop)"),
        ("legal_actions_us", "µs / legal-action enumeration"),
        ("apply_us", "µs / apply (checked)"),
        ("observe_us", "µs / observation"),
        ("copy_us", "µs / state copy"),
    ):
        spread = results[key]
        table.add_row(label, *(f"{spread[k]:.1f}" for k in ("min", "median", "max")))
    console.print(table)
    memory = results["memory"]
    console.print(
        f"memory: peak {memory['peak_game_kib']:.0f} KiB traced in one game; max RSS "
        f"{memory['max_rss_kib'] / 1024:.1f} MiB, growth {memory['rss_growth_kib']:.0f} KiB "
        f"over {memory['games_for_growth']:.0f} more games"
    )

    if not args.no_catanatron:
        try:
            comparison = module.run_comparison(
                args.games, args.repeats, log=lambda m: console.print(f"[dim]{m}[/]")
            )
        except module.BenchmarkError as exc:
            console.print(f"[red]catanatron comparison failed:[/] {exc}")
            results["catanatron"] = {"error": str(exc)}
        else:
            module.print_table(comparison)
            results["catanatron"] = comparison["summary"]
        results["catanatron_head"] = _compare_with_head(module, args, console)
    if args.json:
        print(json.dumps(results, sort_keys=True))
    return 0
