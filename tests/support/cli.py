"""``catan-arena`` run as a user runs it: a process of its own, from the repository."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``catan-arena ARGS``, its output piped (``env``: its environment, else this one's)."""
    return subprocess.run(
        [sys.executable, "-m", "arena_cli.main", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        env=env,
    )
