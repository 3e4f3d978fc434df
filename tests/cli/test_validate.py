"""``catan-arena validate``: every way a bot file can fail, explained; a valid bot passes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena_cli.main import main

ROOT = Path(__file__).resolve().parents[2]

HEADER = "from bots import Player\nfrom engine.actions import MoveRobber\n\n\n"


def player(body: str, name: str = "Bot") -> str:
    return f"class {name}(Player):\n    def act(self, observation):\n{body}\n"


FIRST_LEGAL = "        return observation.legal_actions[0]"

CASES = {
    "syntax": (
        "def oops(:\n",
        ["importing the bot failed: SyntaxError", "def oops(:"],
    ),
    "no_player": (
        "x = 1\n",
        ["exactly one Player subclass, found 0", "define one class that subclasses"],
    ),
    "two_players": (
        HEADER + player(FIRST_LEGAL, "One") + "\n\n" + player(FIRST_LEGAL, "Two"),
        ["exactly one Player subclass, found 2", "keep one Player subclass per file"],
    ),
    "raises": (
        HEADER + player("        raise ValueError('no idea')"),
        ["act() raised ValueError: no idea", "(at step ", "raise ValueError('no idea')"],
    ),
    "illegal": (
        HEADER + player("        return MoveRobber(observation.robber, None)"),
        ["it chose an illegal action", "robber"],
    ),
    "string": (
        HEADER + player("        return 'end_turn'"),
        ["act() returned 'end_turn' (str), not an Action"],
    ),
    "none": (
        HEADER + player("        pass"),
        ["act() returned None (NoneType), not an Action"],
    ),
}


def validate(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["validate", str(path), *args])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("case", sorted(CASES))
def test_invalid_bots_are_explained(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, needles = CASES[case]
    bot = tmp_path / f"{case}.py"
    bot.write_text(source)
    code, out = validate(bot, capsys)
    assert code == 1, out
    assert out.startswith(f"invalid: {bot}\n  reason: ")
    for needle in needles:
        assert needle in out


def test_a_missing_file_is_invalid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = validate(tmp_path / "nope.py", capsys)
    assert code == 1 and "does not exist" in out


def test_a_valid_bot_that_prints_passes_with_a_report(tmp_path: Path) -> None:
    bot = tmp_path / "chatty.py"
    bot.write_text(
        HEADER
        + "print('importing')\n\n\n"
        + player("        print('my move', observation.turn)\n" + FIRST_LEGAL, "Chatty")
        + "\n    name = 'chatty'\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "arena_cli.main", "validate", str(bot), "--seed", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"valid: {bot} (bot 'chatty')"
    assert lines[1].startswith("  sandbox: tier ")
    assert lines[2].startswith("  limits: 1 s CPU per decision, 10 s bank, 130 s wall clock")
    assert (
        lines[3].startswith("  smoke game: seed 2, seat ") and "against 3 random bots" in lines[3]
    )
    assert lines[4].startswith("  decisions: ") and " ms, max " in lines[4]
    assert "the bot printed" in lines[5]
    assert lines[6].startswith("    | my move ")  # the tail of what it printed, shown
    assert lines[-1] == f"  repeat this check: catan-arena validate {bot} --seed 2"


def test_each_run_plays_a_fresh_seed_and_prints_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "plain.py"
    bot.write_text(HEADER + player(FIRST_LEGAL))
    seeds = []
    for _ in range(2):
        code, out = validate(bot, capsys)
        assert code == 0, out
        seeds.append(re.search(r"smoke game: seed ([0-9a-f]{32}),", out).group(1))  # type: ignore[union-attr]
        assert f"--seed {seeds[-1]}" in out
    assert seeds[0] != seeds[1]
