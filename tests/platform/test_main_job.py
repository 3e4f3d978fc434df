"""The README's main job on the embedded default, end to end: no environment (SQLite in
a fresh data folder, no broker), the built-ins registered, a round robin on local
worker processes with every bot sandboxed, the standings printed."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.bots import SOURCES, VALID_BOT
from tests.support.serve_tree import ROOT, embedded_env

pytestmark = pytest.mark.timeout(900)  # longer than the suite's default (pyproject.toml)


def manage(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=embedded_env(data, COLUMNS="80"),  # a terminal's usual width; piped, as here
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_main_job_runs_a_round_robin_of_the_builtins(tmp_path: Path) -> None:
    assert manage(tmp_path, "migrate", "--verbosity", "0").returncode == 0
    run = manage(tmp_path, "tournament", "--cycles", "1", "--decision-seconds", "0.5")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "3 games among 3 bots, on local workers" in out
    assert "standings (finished)" in out
    standings = out[out.index("standings (finished)") : out.index("Head to head")]
    for bot in ("search v1", "heuristic v1", "random v1"):  # whole, on a row with its figures
        assert re.search(rf"^ *\d+ {bot} +\d+ +\d+ +\d+ +\d+ +\d+\.\d\d ", standings, re.M), bot
    assert "…" not in out and max(map(len, out.splitlines())) <= 80
    assert "3 games finished, 0 failed" in out
    assert "Next: make serve" in out and "http://127.0.0.1:8000/tournaments/" in out

    db = sqlite3.connect(tmp_path / "db.sqlite3")  # the embedded default's own database
    rows = db.execute("SELECT status, sandbox_tier FROM matches_match").fetchall()
    assert rows == [("finished", "FULL")] * 3
    assert db.execute("SELECT count(*) FROM ratings_rating").fetchone() == (3,)


def test_an_unknown_bot_is_a_clear_error(tmp_path: Path) -> None:
    assert manage(tmp_path, "migrate", "--verbosity", "0").returncode == 0
    run = manage(tmp_path, "tournament", "random", "heuristic", "nobody")
    assert run.returncode == 1
    assert "no active version of a bot named 'nobody'" in run.stderr


def test_an_author_uploads_a_bot_and_enters_it(tmp_path: Path) -> None:

    data = tmp_path / "data"
    assert manage(data, "migrate", "--verbosity", "0").returncode == 0
    good, bad = tmp_path / "wanderer.py", tmp_path / "broken.py"
    good.write_bytes(VALID_BOT)
    bad.write_bytes(SOURCES["two Players"][0])
    run = manage(data, "upload_bot", str(good), "--name", "wanderer", "--owner", "ada")
    assert run.returncode == 0, run.stderr
    assert "wanderer v1: active" in run.stdout and "smoke game" in run.stdout
    again = manage(data, "upload_bot", str(good), "--name", "wanderer", "--owner", "ada")
    assert "identical to wanderer v1 (active): nothing changed" in again.stdout
    refused = manage(data, "upload_bot", str(bad), "--name", "broken", "--owner", "ada")
    assert refused.returncode == 1
    assert "broken v1: rejected" in refused.stdout and "found 2" in refused.stdout
    args = ["tournament", "wanderer", "random", "heuristic", "--cycles", "1"]
    run = manage(data, *args, "--decision-seconds", "0.3")
    assert run.returncode == 0, run.stderr
    assert "wanderer v1" in run.stdout and "3 games finished, 0 failed" in run.stdout
