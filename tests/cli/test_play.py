"""``catan-arena play``: summaries, determinism, replays, bot files and clear errors."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
from pathlib import Path
from typing import Any

from tests.support.cli import run_cli

FIRST_ACTION_BOT = """
from bots import Player


class FirstLegal(Player):
    def act(self, observation):
        return observation.legal_actions[0]
"""


def _without_timings(summary: dict[str, Any]) -> dict[str, Any]:
    """Decision times are measured, so they vary; everything else must be identical."""
    bots = [{k: v for k, v in b.items() if not k.endswith("_ms")} for b in summary["bots"]]
    return {**summary, "bots": bots}


def test_the_table_fits_80_columns_in_a_terminal_and_piped() -> None:
    """Names whole ("heuri…" was printed in 80 columns), every line within 80."""
    args = ("play", "heuristic", "random", "random", "--games", "1", "--in-process")
    bare = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    for env in (bare | {"COLUMNS": "80"}, bare):  # a terminal of 80 columns; a pipe
        shown = run_cli(*args, env=env)
        assert shown.returncode == 0, shown.stderr
        for name in ("heuristic", "random#1", "random#2"):
            assert re.search(rf"^{name} +\d+ +\d+\.\d%", shown.stdout, re.M), shown.stdout
        assert "…" not in shown.stdout and max(map(len, shown.stdout.splitlines())) <= 80


def test_play_prints_a_summary_and_the_same_seed_gives_the_same_output(tmp_path: Path) -> None:
    args = ("play", "random", "random", "random", "random", "--games", "4", "--seed", "5")
    first = run_cli(*args, "--json", "--replays", str(tmp_path))
    second = run_cli(*args, "--json")
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout.strip().splitlines()[-1])
    again = json.loads(second.stdout.strip().splitlines()[-1])
    assert _without_timings(summary) == _without_timings(again)
    assert summary["games"] == 4
    assert sum(bot["wins"] for bot in summary["bots"]) + summary["truncated"] == 4
    assert all(bot["games"] == 4 for bot in summary["bots"])
    assert "win rate" in first.stdout
    replays = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in replays] == [f"game-{s}.json" for s in (5, 6, 7, 8)]
    check = run_cli("replay", str(replays[0]))
    assert check.returncode == 0, check.stderr


def test_play_rotates_seats(tmp_path: Path) -> None:
    bot = tmp_path / "first_legal.py"
    bot.write_text(FIRST_ACTION_BOT)
    result = run_cli(
        "play",
        str(bot),
        "random",
        "random",
        "--games",
        "3",
        "--seed",
        "0",
        "--replays",
        str(tmp_path),
        "--json",
    )
    assert result.returncode == 0, result.stderr
    seats_of_bot = []
    for seed in range(3):
        data = json.loads((tmp_path / f"game-{seed}.json").read_text())
        seats_of_bot.append(next(s["seat"] for s in data["seats"] if s["name"] == "FirstLegal"))
    assert sorted(seats_of_bot) == [0, 1, 2]


def test_play_explains_bad_bots(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def oops(:\n")
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    for spec, needle in (
        ("nosuchbot", "unknown bot 'nosuchbot'"),
        (str(tmp_path / "missing.py"), "does not exist"),
        (str(broken), "SyntaxError"),
        (str(empty), "exactly one Player subclass, found 0"),
    ):
        result = run_cli("play", spec, "random", "random")
        assert result.returncode == 2
        assert needle in result.stderr
        assert "Traceback" not in result.stderr
    assert "give 3 or 4 bots" in run_cli("play", "random", "random").stderr


def test_in_process_gives_the_same_games_and_refuses_bot_files(tmp_path: Path) -> None:
    args = ("play", "random", "random", "random", "--games", "2", "--seed", "3", "--json")
    isolated = run_cli(*args)
    trusted = run_cli(*args, "--in-process")
    assert isolated.returncode == 0 and trusted.returncode == 0, trusted.stderr
    summary = json.loads(isolated.stdout.strip().splitlines()[-1])
    again = json.loads(trusted.stdout.strip().splitlines()[-1])
    runners = (summary.pop("runner"), again.pop("runner"))
    assert runners[0].startswith("sandbox ") and runners[1] == "in-process"
    assert _without_timings(summary) == _without_timings(again)
    bot = tmp_path / "first_legal.py"
    bot.write_text(FIRST_ACTION_BOT)
    refused = run_cli("play", str(bot), "random", "random", "--in-process")
    assert refused.returncode == 2
    assert "--in-process runs only the trusted built-in bots" in refused.stderr


def test_play_reports_faults_and_decision_times(tmp_path: Path) -> None:
    bot = tmp_path / "sleepy.py"
    bot.write_text(
        "import time\nfrom bots import Player\n\n\nclass Sleepy(Player):\n"
        "    def act(self, observation):\n        time.sleep(30)\n"
    )
    result = run_cli(
        "play", str(bot), "random", "random", "--games", "1", "--seed", "0", "--timeout", "0.3"
    )
    assert result.returncode == 0, result.stderr
    assert "faults" in result.stdout and "max ms" in result.stdout
    assert (
        "Sleepy: 1 faults (timeout 1, forfeited 1 games); first in game 0 at step 0: timeout"
        in (result.stderr)
    )
    summary = run_cli("play", "random", "random", "random", "--games", "1", "--json").stdout
    bots = json.loads(summary.strip().splitlines()[-1])["bots"]
    assert all(b["faults"] == 0 and b["max_decision_ms"] >= b["mean_decision_ms"] for b in bots)


RAISER = """
import sys
from bots import Player

ESCAPES = "\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J\\x1b]0;title\\x07\\x9b31m"


class Raiser(Player):
    name = "[blink]raiser\x1b[2J"

    def act(self, observation):
        sys.stderr.write(ESCAPES + "\\n")
        raise RuntimeError("[bold red]markup[/] " + ESCAPES)
"""


def test_bot_text_reaches_the_terminal_without_escapes_or_markup(tmp_path: Path) -> None:
    bot = tmp_path / "raiser.py"
    bot.write_text(RAISER)
    result = run_cli("play", str(bot), "random", "random", "--games", "1", "--seed", "0")
    assert result.returncode == 0, result.stderr
    out = result.stdout + result.stderr
    assert "\x1b" not in out and "\x9b" not in out and "\x07" not in out
    assert "[blink]raiser" in result.stdout  # its self-declared name, shown, never markup
    assert "[bold red]markup[/]" in result.stderr
    assert "forfeited 1 games" in result.stderr and "wins" in result.stdout


def test_a_forfeited_bot_is_never_credited_with_its_autopilots_wins(tmp_path: Path) -> None:
    bot = tmp_path / "raiser.py"
    bot.write_text(RAISER)
    args = ("play", str(bot), "random", "random", "--games", "3", "--seed", "0", "--json")
    result = run_cli(*args, "--replays", str(tmp_path))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.splitlines()[-1])
    raiser = summary["bots"][0]
    assert raiser["forfeits"] == 3 and raiser["wins"] == 0, raiser
    # the heuristic autopilot beats two random bots: the engine's winner is its seat
    replays = [json.loads(p.read_text()) for p in sorted(tmp_path.glob("game-*.json"))]
    autopilot_wins = [
        r for r in replays if r["result"]["winner"] in r["meta"]["standings"]["forfeited"]
    ]
    assert autopilot_wins, "the test needs a game won by a forfeited seat's autopilot"
    for replay in autopilot_wins:
        assert replay["meta"]["standings"]["winner"] is None
        shown = run_cli("replay", str(tmp_path / f"game-{replay['seed']}.json"))
        assert "no win credited" in shown.stdout and " winner" not in shown.stdout


PRINTER = """
from bots import Player


class Printer(Player):
    def act(self, observation):
        print("thinking about", len(observation.legal_actions), "options")
        return observation.legal_actions[0]
"""


def test_logs_version_and_a_replays_path_that_is_a_file(tmp_path: Path) -> None:
    bot = tmp_path / "printer.py"
    bot.write_text(PRINTER)
    logs = tmp_path / "logs"
    args = ("play", str(bot), "random", "random", "--games", "2", "--seed", "0")
    result = run_cli(*args, "--logs", str(logs), "--json")
    assert result.returncode == 0, result.stderr
    written = sorted(p.name for p in logs.iterdir())
    # one log per game, the printing bot's only (the built-ins print nothing), named so
    assert written == ["game-001-seat0-Printer.log", "game-002-seat1-Printer.log"], written
    lines = [(logs / name).read_text().splitlines() for name in written]
    assert all(game and all(line.startswith("thinking about ") for line in game) for game in lines)
    printer = json.loads(result.stdout.strip().splitlines()[-1])["bots"][0]
    assert printer["bot"] == "Printer"
    assert sum(map(len, lines)) == printer["decisions"]  # every decision's line, nothing lost
    taken = tmp_path / "taken"
    taken.write_text("not a directory")
    refused = run_cli(*args, "--replays", str(taken))
    assert refused.returncode == 2 and "exists and is not a directory" in refused.stderr
    assert "Traceback" not in refused.stderr and refused.stdout == ""  # refused before playing
    assert taken.read_text() == "not a directory"
    version = run_cli("--version")
    assert version.returncode == 0
    assert version.stdout == f"catan-arena {importlib.metadata.version('catan-arena')}\n"


def test_replay_checks_every_file_it_is_given(tmp_path: Path) -> None:
    """``catan-arena replay replays/*.json`` (the bot guide's): each file re-simulated
    and told; one that does not reproduce fails the command, the others still checked."""
    args = ("play", "random", "random", "random", "--games", "2", "--seed", "11", "--in-process")
    assert run_cli(*args, "--replays", str(tmp_path)).returncode == 0
    good = sorted(str(p) for p in tmp_path.glob("game-*.json"))
    assert len(good) == 2
    data = json.loads(Path(good[0]).read_text())
    data["steps"][5]["action"] = {"type": "end_turn"}  # no longer the game its seed plays
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    checked = run_cli("replay", *good)
    assert checked.returncode == 0 and checked.stdout.count(": reproduces") == 2
    mixed = run_cli("replay", good[0], str(bad), good[1])
    assert mixed.returncode == 1 and mixed.stdout.count(": reproduces") == 2
    assert "bad.json" in mixed.stderr
