"""A bot passing ``catan-arena validate`` passes upload, and the reverse: the same bots
through both paths — the command line as a subprocess, and ``upload_version`` +
``validate_version`` against the real PostgreSQL — get the same verdict (valid or not)
and the same kind of reason."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from catan_arena.accounts.models import User
from catan_arena.submissions.errors import UploadRejected
from catan_arena.submissions.services import upload_version, validate_version
from tests.support.bots import VALID_BOT, make_zip

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(600)]
ROOT = Path(__file__).resolve().parents[2]

SLOW = b"""
import time
from bots import Player


class Slow(Player):
    def act(self, observation):
        time.sleep(14)  # past one decision's wall clock: 3 x 1 s + the 10 s bank
        return observation.legal_actions[0]
"""
CRASH = b"""
import os
from bots import Player


class Crash(Player):
    def act(self, observation):
        os._exit(3)
"""
SYNTAX = b"from bots import Player\nclass Broken(Player:\n    pass\n"
OVER_CAPS = make_zip({"bot.py": VALID_BOT, **{f"data/{i}.txt": b"x" for i in range(200)}})
CLOCK_BUDGET = (ROOT / "bots" / "examples" / "clock_budget.py").read_bytes()

BOTS: dict[str, tuple[str, bytes, tuple[bool, str]]] = {
    "good": ("good.py", VALID_BOT, (True, "")),
    "slow": ("slow.py", SLOW, (False, "timeout")),
    "over-caps": ("big.zip", OVER_CAPS, (False, "package")),
    "crash": ("crash.py", CRASH, (False, "crash")),
    "syntax": ("syntax.py", SYNTAX, (False, "error")),
    "clock-budget": ("clock_budget.py", CLOCK_BUDGET, (True, "")),
}


def by_cli(path: Path) -> tuple[bool, str, str]:
    """``catan-arena validate`` in its own process: (valid, kind, output)."""
    result = subprocess.run(
        [sys.executable, "-m", "arena_cli.main", "validate", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    out = result.stdout
    assert result.returncode in (0, 1), out + result.stderr
    return result.returncode == 0, _kind(out), out


def by_upload(author: User, name: str, filename: str, data: bytes) -> tuple[bool, str, str]:
    """An upload and its validation on the server: (valid, kind, report)."""
    try:
        version = upload_version(author, name, filename, data).version
    except UploadRejected as exc:
        return False, "package", str(exc)
    assert validate_version(version.pk) in ("active", "rejected")
    version.refresh_from_db()
    return version.status == "active", _kind(version.report), version.report


def _kind(text: str) -> str:
    found = re.search(r"^\s*kind: (\S+)$", text, re.MULTILINE)
    return found.group(1) if found else ""


def _clock(text: str) -> str:
    found = re.search(r"it ran out of time \(([^)]*)\)", text)
    return found.group(1) if found else ""


@pytest.mark.parametrize("case", list(BOTS))
def test_the_command_line_and_the_upload_agree(case: str, author: User, tmp_path: Path) -> None:
    filename, data, expected = BOTS[case]
    path = tmp_path / filename
    path.write_bytes(data)
    cli_valid, cli_kind, cli_text = by_cli(path)
    up_valid, up_kind, up_text = by_upload(author, case, filename, data)
    assert (cli_valid, cli_kind) == expected, cli_text
    assert (up_valid, up_kind) == expected, up_text
    assert _clock(cli_text) == _clock(up_text)  # a time-out: the same clock ran out
    if case == "slow":
        assert _clock(up_text) == "the wall-clock limit of one decision", up_text
    if case == "over-caps":  # the same words for the same caps
        assert "201 entries, over 200" in cli_text and "201 entries, over 200" in up_text
    for text in (cli_text, up_text):  # both say what was applied, and the seed
        if case != "over-caps":
            assert "limits: 1 s CPU per decision, 10 s bank, 130 s wall clock per game" in text
            assert re.search(r"smoke game: seed [0-9a-f]{32}\b", text), text


def test_each_upload_plays_a_fresh_seed(author: User) -> None:
    seeds = []
    for i in range(2):
        version = upload_version(author, "fresh", "b.py", VALID_BOT + f"#{i}\n".encode()).version
        assert validate_version(version.pk) == "active"
        version.refresh_from_db()
        found = re.search(r"smoke game: seed ([0-9a-f]{32}),", version.report)
        assert found, version.report
        seeds.append(found.group(1))
    assert seeds[0] != seeds[1]
