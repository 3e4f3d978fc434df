"""Side-by-side throughput: Catan Arena vs catanatron, random players, one core.

Each repeat runs both engines as separate subprocesses pinned to one CPU,
interleaved (catanatron first on even repeats, ours first on odd ones), each
playing the same seeded 4-player games and printing one JSON line
``{"engine", "version", "games", "seconds", "decisions", "finished"}``.

catanatron (GPL) is only a benchmark opponent: it is pip-installed at a pinned
version into a throwaway virtualenv (default ``.cache/catanatron-venv``) and
driven by ``catanatron_probe.py``; the product never imports it. ``--source DIR``
compares with catanatron's current source instead: a checkout of its repository
(``.cache/catanatron-src``, which ``catan-arena bench`` also compares with when it
exists) installed into a virtualenv of its own (``.cache/catanatron-head-venv``).

Usage: ``python3 benchmarks/vs_catanatron.py [--games 200] [--repeats 5] [--source DIR] [--json]``.
Other modules can load this file with importlib and call ``run_comparison``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

DEFAULT_GAMES = 200
"""Games per run. Random games' lengths have a long tail (a game that reaches the
1,000-turn cap lasts about three times the usual), so a few seeds decided the ratio of
30-game runs: 2 of seeds 0-29 reach the cap in our engine, which made its games 1,208
decisions long on average against 1,079 over seeds 0-299 (catanatron HEAD: 1,002 and
1,126)."""
CATANATRON_VERSION = "3.2.1"
"""The catanatron release this harness was written and tested against."""

REPO_ROOT = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).resolve().with_name("catanatron_probe.py")
DEFAULT_VENV = REPO_ROOT / ".cache" / "catanatron-venv"
HEAD_SOURCE = REPO_ROOT / ".cache" / "catanatron-src"
"""Where a checkout of catanatron's repository (its current source) is looked for."""
HEAD_VENV = REPO_ROOT / ".cache" / "catanatron-head-venv"
"""The virtualenv holding catanatron installed from :data:`HEAD_SOURCE`."""
OURS_ENGINE = "catan-arena"
THEIRS_ENGINE = "catanatron"
RESULT_KEYS = ("engine", "games", "seconds", "decisions", "finished")


class BenchmarkError(Exception):
    """A failure to report as one clear line instead of a traceback."""


def _last_line(text: str) -> str:
    """Return the last non-blank line of ``text`` (or a placeholder)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def _venv_python(venv: Path) -> Path:
    """Return the interpreter path inside ``venv``."""
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def _installed_version(python: Path) -> str | None:
    """Return the catanatron version installed for ``python``, if any."""
    if not python.exists():
        return None
    code = "from importlib.metadata import version; print(version('catanatron'))"
    try:
        proc = subprocess.run(
            [str(python), "-c", code], capture_output=True, text=True, check=False
        )
    except OSError:
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def _make_venv(venv: Path) -> None:
    """A fresh virtualenv at ``venv`` (whatever was there is cleared)."""
    proc = subprocess.run(
        [sys.executable, "-m", "venv", "--clear", str(venv)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0 or not _venv_python(venv).exists():
        detail = _last_line(proc.stderr or proc.stdout)
        raise BenchmarkError(f"cannot create virtualenv {venv}: {detail}")


def ensure_venv(venv: Path, log: Callable[[str], None] = print) -> Path:
    """Create ``venv`` with the pinned catanatron if needed; return its python."""
    python = _venv_python(venv)
    if _installed_version(python) == CATANATRON_VERSION:
        return python
    if not python.exists():
        log(f"creating virtualenv {venv}")
        _make_venv(venv)
    log(f"installing catanatron=={CATANATRON_VERSION} into {venv}")
    proc = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--retries",
            "2",
            f"catanatron=={CATANATRON_VERSION}",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0 or _installed_version(python) != CATANATRON_VERSION:
        detail = _last_line(proc.stderr or proc.stdout)
        raise BenchmarkError(
            f"cannot install catanatron=={CATANATRON_VERSION} into {venv} (no network?): {detail}"
        )
    return python


def is_checkout(source: Path) -> bool:
    """Is ``source`` a checkout of catanatron's repository (players included)?"""
    return (source / "catanatron" / "catanatron" / "players" / "minimax.py").is_file()


def ensure_source_venv(
    venv: Path,
    source: Path,
    probe: str = "import catanatron",
    log: Callable[[str], None] = print,
) -> Path:
    """``venv``'s python with catanatron installed from the checkout ``source``, made
    afresh unless ``probe`` already runs there."""
    python = _venv_python(venv)
    if python.exists() and subprocess.run([python, "-c", probe], check=False).returncode == 0:
        return python
    if not is_checkout(source):
        raise BenchmarkError(
            f"{source} is not a checkout of catanatron's repository: clone "
            "https://github.com/bcollazo/catanatron there"
        )
    log(f"installing catanatron from {source} into {venv}")
    _make_venv(venv)
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    done = subprocess.run([*pip, str(source)], capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchmarkError(f"cannot install catanatron into {venv}: {_last_line(done.stderr)}")
    return python


def _pin_prefix(cpu: int) -> tuple[list[str], Callable[[], None] | None]:
    """Return a command prefix and/or preexec_fn pinning a child to ``cpu``."""
    prefix: list[str] = []
    preexec: Callable[[], None] | None = None
    if shutil.which("taskset"):
        prefix = ["taskset", "-c", str(cpu)]
    elif hasattr(os, "sched_setaffinity"):

        def preexec() -> None:
            os.sched_setaffinity(0, {cpu})

    # Without ASLR, catanatron's set orders (hash(None) is address-based on
    # Python < 3.12) and so its games are the same in every process.
    setarch = shutil.which("setarch")
    if setarch:
        probe = [setarch, platform.machine(), "-R", sys.executable, "-c", "pass"]
        if subprocess.run(probe, capture_output=True, check=False).returncode == 0:
            prefix += [setarch, platform.machine(), "-R"]
    return prefix, preexec


def _pick_cpu() -> int:
    """Return the lowest CPU this process may run on (0 if unknown)."""
    if hasattr(os, "sched_getaffinity"):
        return min(os.sched_getaffinity(0))
    return 0


def _run_side(
    cmd: Sequence[str],
    expected_engine: str,
    pin: tuple[list[str], Callable[[], None] | None],
) -> dict[str, Any]:
    """Run one benchmark subprocess and return its parsed JSON line."""
    prefix, preexec = pin
    env = dict(os.environ, PYTHONHASHSEED="0")
    full = [*prefix, *cmd]
    try:
        proc = subprocess.run(
            full,
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            preexec_fn=preexec,
        )
    except OSError as exc:
        raise BenchmarkError(f"cannot run {shlex.join(cmd)}: {exc}") from exc
    if proc.returncode != 0:
        raise BenchmarkError(
            f"{expected_engine} run failed (exit {proc.returncode}): "
            f"{_last_line(proc.stderr or proc.stdout)}"
        )
    result: dict[str, Any] | None = None
    for line in reversed(proc.stdout.splitlines()):
        if line.lstrip().startswith("{"):
            try:
                parsed = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(parsed, dict):
                result = parsed
                break
    if result is None:
        raise BenchmarkError(f"{expected_engine} run printed no JSON line")
    missing = [key for key in RESULT_KEYS if key not in result]
    if missing:
        raise BenchmarkError(f"{expected_engine} JSON lacks {', '.join(missing)}")
    if not all(isinstance(result[key], int | float) for key in RESULT_KEYS[1:]):
        raise BenchmarkError(f"{expected_engine} JSON has non-numeric counts: {result}")
    if result["engine"] != expected_engine:
        raise BenchmarkError(f"expected engine {expected_engine!r}, got {result['engine']!r}")
    if result["seconds"] <= 0 or result["decisions"] <= 0 or result["games"] <= 0:
        raise BenchmarkError(f"{expected_engine} reported an empty run: {result}")
    return result


def _derive(result: dict[str, Any]) -> dict[str, float]:
    """Return games/s, decisions/game and µs/decision of one run."""
    games, seconds, decisions = result["games"], result["seconds"], result["decisions"]
    return {
        "games_per_s": games / seconds,
        "decisions_per_game": decisions / games,
        "us_per_decision": seconds * 1e6 / decisions,
    }


def _spread(values: Sequence[float]) -> dict[str, float]:
    """Return min/median/max of ``values``."""
    return {
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
    }


def run_comparison(
    games: int,
    repeats: int,
    venv: Path | None = None,
    *,
    seed: int = 0,
    ours_cmd: Sequence[str] | None = None,
    log: Callable[[str], None] | None = None,
    python: Path | None = None,
) -> dict[str, Any]:
    """Benchmark both engines ``repeats`` times on ``games`` games each.

    ``ours_cmd`` replaces ``python -m engine.perf`` (``--games/--seed/--json``
    are appended); ``python``, an interpreter with catanatron installed (see
    :func:`ensure_source_venv`), replaces the pinned release's venv. Raises
    ``BenchmarkError`` on any setup or run failure.
    """
    if games < 1 or repeats < 1:
        raise BenchmarkError("--games and --repeats must be at least 1")
    say = log or (lambda _msg: None)
    if python is None:
        python = ensure_venv(Path(venv) if venv else DEFAULT_VENV, say)
    ours_base = list(ours_cmd) if ours_cmd else [sys.executable, "-m", "engine.perf"]
    args = ["--games", str(games), "--seed", str(seed), "--json"]
    commands = {
        THEIRS_ENGINE: [str(python), str(PROBE), *args],
        OURS_ENGINE: [*ours_base, *args],
    }
    cpu = _pick_cpu()
    pin = _pin_prefix(cpu)
    runs: list[dict[str, Any]] = []
    for rep in range(repeats):
        order = [THEIRS_ENGINE, OURS_ENGINE]
        if rep % 2:
            order.reverse()
        record: dict[str, Any] = {"repeat": rep, "order": order}
        for engine in order:
            say(f"repeat {rep + 1}/{repeats}: {engine}")
            record[engine] = _run_side(commands[engine], engine, pin)
        ours = _derive(record[OURS_ENGINE])["games_per_s"]
        theirs = _derive(record[THEIRS_ENGINE])["games_per_s"]
        record["ratio"] = ours / theirs
        runs.append(record)

    summary: dict[str, Any] = {}
    for engine in (THEIRS_ENGINE, OURS_ENGINE):
        derived = [_derive(run[engine]) for run in runs]
        summary[engine] = {metric: _spread([d[metric] for d in derived]) for metric in derived[0]}
        summary[engine]["version"] = runs[0][engine].get("version")
        summary[engine]["finished"] = sum(run[engine]["finished"] for run in runs)
        summary[engine]["games"] = sum(run[engine]["games"] for run in runs)
    summary["ratio"] = _spread([run["ratio"] for run in runs])
    return {
        "games": games,
        "repeats": repeats,
        "seed": seed,
        "cpu": cpu,
        "pinning": shlex.join(pin[0]) or ("sched_setaffinity" if pin[1] else "none"),
        "catanatron_version": runs[0][THEIRS_ENGINE].get("version") or CATANATRON_VERSION,
        "summary": summary,
        "runs": runs,
    }


def _table_rows(result: dict[str, Any]) -> list[tuple[str, ...]]:
    """Return (label, unit, min, median, max) rows of the summary."""
    summary = result["summary"]
    rows: list[tuple[str, ...]] = []
    metrics = (
        ("games_per_s", "games/s", "{:.2f}"),
        ("decisions_per_game", "decisions/game", "{:.0f}"),
        ("us_per_decision", "µs/decision", "{:.1f}"),
    )
    for engine in (THEIRS_ENGINE, OURS_ENGINE):
        version = summary[engine]["version"]
        label = f"{engine} {version}" if version else engine
        for key, unit, fmt in metrics:
            spread = summary[engine][key]
            rows.append((label, unit, *(fmt.format(spread[k]) for k in ("min", "median", "max"))))
    ratio = summary["ratio"]
    rows.append(
        (
            "ratio ours/catanatron",
            "games/s",
            *(f"{ratio[k]:.2f}x" for k in ("min", "median", "max")),
        )
    )
    return rows


def print_table(result: dict[str, Any]) -> None:
    """Print the summary as a rich table, or plain text without rich."""
    summary = result["summary"]
    title = (
        f"{result['repeats']} repeats x {result['games']} games, 4 random players, "
        f"CPU {result['cpu']} ({result['pinning']})"
    )
    finished = ", ".join(
        f"{engine} finished {summary[engine]['finished']}/{summary[engine]['games']}"
        for engine in (THEIRS_ENGINE, OURS_ENGINE)
    )
    rows = _table_rows(result)
    header = ("engine", "metric", "min", "median", "max")
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
        print(title)
        for row in (header, *rows):
            cells = [
                cell.ljust(w) if i < 2 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ]
            print("  ".join(cells))
        print(finished)
        return
    table = Table(title=title, caption=finished)
    for i, name in enumerate(header):
        table.add_column(name, justify="left" if i < 2 else "right")
    for row in rows:
        table.add_row(*row)
    Console().print(table)


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per run")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats")
    parser.add_argument("--seed", type=int, default=0, help="seed of game 0")
    parser.add_argument("--json", action="store_true", help="end with a JSON line")
    parser.add_argument("--venv", type=Path, default=None, help=f"catanatron venv ({DEFAULT_VENV})")
    parser.add_argument(
        "--source",
        type=Path,
        default=None,
        help=f"compare with catanatron installed from this checkout (e.g. {HEAD_SOURCE})",
    )
    parser.add_argument(
        "--ours-cmd",
        default=None,
        help="command replacing 'python -m engine.perf' (shell-quoted)",
    )
    args = parser.parse_args(argv)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    try:
        python = None
        if args.source is not None:
            python = ensure_source_venv(args.venv or HEAD_VENV, args.source, log=log)
        result = run_comparison(
            args.games,
            args.repeats,
            args.venv,
            seed=args.seed,
            ours_cmd=shlex.split(args.ours_cmd) if args.ours_cmd else None,
            log=log,
            python=python,
        )
    except BenchmarkError as exc:
        print(f"vs_catanatron: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("vs_catanatron: interrupted", file=sys.stderr)
        return 130
    print_table(result)
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
