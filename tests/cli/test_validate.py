"""``catan-arena validate``: every way a bot file can fail, explained; a valid bot passes."""

from __future__ import annotations

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
        ["act() raised ValueError: no idea", "at step 0", "raise ValueError('no idea')"],
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
    assert "seat 2 against 3 random bots" in lines[2]
    assert lines[3].startswith("  decisions: ") and " ms, max " in lines[3]
    assert "the bot printed" in lines[4]
    assert lines[5].startswith("    | my move ")  # the tail of what it printed, shown
