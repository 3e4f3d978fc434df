"""Strength against catanatron's best: our bot 1-vs-3 against catanatron's players, and back.

catanatron's ``AlphaBetaPlayer`` and ``ValueFunctionPlayer`` play in our engine as
ordinary bot processes through the bridge (``benchmarks/catanatron_bridge/``): each is a
bot file run by our bot runtime with the python of a throwaway virtualenv holding
catanatron, speaking our protocol, deciding on a mirror of the game in catanatron's engine
with the hidden cards determinised from what its seat saw. Our engine stays the referee.

catanatron is GPL: never vendored, never imported by the product or its tests. Its players
are not in the PyPI release (3.2.1), so the virtualenv (default
``.cache/catanatron-bridge-venv``) is built from a checkout of its repository
(``--catanatron-source``, default ``.cache/catanatron-src``; tested at 3.3.0, commit
41ba0db). Our bot runtime needs nothing else there: it reads the host's messages with
the stdlib (marshal), so the virtualenv must be of the same Python as the runner.

For each catanatron player (``alphabeta``, ``value``) it plays our candidate against three
of them, then one of them against three of our candidate, ``--games`` games each on fresh
seeds (the seat rotates) at the same clock, and prints each win rate with its 95% Wilson
interval. Usage::

    python benchmarks/strength_vs_catanatron.py search --games 10 --decision-ms 1000
"""

from __future__ import annotations

import argparse
import functools
import json
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena_runner import SeatDriver, SubprocessDriver
from arena_runner.process import BotProcess
from arena_runner.sandbox.launch import open_bot_pipes
from benchmarks.strength import bot_driver, run
from benchmarks.vs_catanatron import BenchmarkError, ensure_source_venv

REPO_ROOT = Path(__file__).resolve().parents[1]
BRIDGE = REPO_ROOT / "benchmarks" / "catanatron_bridge"
PLAYERS = {"alphabeta": BRIDGE / "alphabeta.py", "value": BRIDGE / "value_function.py"}
"""The catanatron players the bridge seats, by the name used on the command line."""
DEFAULT_VENV = REPO_ROOT / ".cache" / "catanatron-bridge-venv"
DEFAULT_SOURCE = REPO_ROOT / ".cache" / "catanatron-src"


def ensure_venv(venv: Path, source: Path) -> Path:
    """The virtualenv's python, with catanatron (from ``source``) installed."""
    probe = "import catanatron.players.minimax, catanatron.players.value"
    return ensure_source_venv(venv, source, probe=probe)


def spawn_bridge(python: Path, path: Path) -> BotProcess:
    """Our bot runtime for the bridge's bot file ``path``, run by the virtualenv's python
    (unsandboxed: a benchmark's own trusted code), with our sources on its path."""
    popen = open_bot_pipes(
        [str(python), "-m", "bots.runtime", str(path)],
        cwd=tempfile.gettempdir(),
        env={"PYTHONPATH": str(REPO_ROOT), "PYTHONHASHSEED": "0"},
    )
    return BotProcess(popen)


def driver_for(python: str, spec: str) -> SeatDriver:
    """A catanatron player through the bridge, or one of our bots in its sandbox."""
    if spec in PLAYERS:
        spawn = functools.partial(spawn_bridge, Path(python))
        return SubprocessDriver(PLAYERS[spec], spawn=spawn, name=spec)
    return bot_driver(spec)


def pairings(candidate: str, players: list[str]) -> list[tuple[str, str]]:
    """Ours vs three of each catanatron player, then each vs three of ours."""
    return [pair for p in players for pair in ((candidate, p), (p, candidate))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidate", help="our bot: a built-in name or a bot file")
    parser.add_argument("--players", nargs="+", choices=sorted(PLAYERS), default=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=10, help="games per pairing")
    parser.add_argument("--decision-ms", type=float, default=1000.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: fresh)")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV)
    parser.add_argument("--catanatron-source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        python = ensure_venv(args.venv, args.catanatron_source)
    except BenchmarkError as exc:
        print(f"strength_vs_catanatron: error: {exc}", file=sys.stderr)
        return 2
    driver = functools.partial(driver_for, str(python))
    seed = secrets.randbits(48) if args.seed is None else args.seed
    results: list[dict[str, Any]] = []
    for i, (candidate, opponent) in enumerate(pairings(args.candidate, args.players)):
        first = seed + i * args.games
        result = run(
            candidate, opponent, args.games, args.decision_ms, args.jobs, first, True, driver
        )
        low, high = result["ci95"]
        print(
            f"{candidate} vs 3x {opponent} ({args.decision_ms:g} ms/decision, seeds {first}+): "
            f"{result['wins']}/{args.games} wins = {result['win_rate']:.1%} "
            f"[95% CI {low:.1%}–{high:.1%}], mean points {result['mean_points']:.2f}, "
            f"decision mean {result['mean_decision_ms']:.0f} ms max "
            f"{result['max_decision_ms']:.0f} ms, faults {result['faults']}, "
            f"{result['truncated']} truncated, {result['minutes']:.1f} min",
            flush=True,
        )
        results.append(result)
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
