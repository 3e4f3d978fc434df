"""The load test at CI's size (``make bench-load`` runs the full one): ladder matches
through Redis to two real workers while spectators browse a database with history, on
gunicorn with production settings; nothing lost, no failed request."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(1200)  # longer than the suite's default (pyproject.toml)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.serial
def test_a_small_load_run_loses_nothing(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    run = subprocess.run(
        [sys.executable, "benchmarks/load_test.py", "--matches", "60", "--history", "2000",
         "--spectators", "8", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["statuses"] == {"finished": 60} and not report["failures"]
    assert report["rating_updates"] == 240
    pages = report["load"]["pages"]
    assert {"ladder", "match", "replay step", "api match"} <= set(pages)
    assert report["load"]["requests"] > 50 and report["load"]["failures"] == 0
    assert all(row["server_median"] is not None for row in pages.values())
