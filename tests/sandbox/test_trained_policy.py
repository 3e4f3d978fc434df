"""The documented way to ship a trained policy runs in the real sandbox: a package
folder (entry bot.py, a helper module, weights) and the same folder zipped, with numpy
from the bot runtime."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from arena_runner.sandbox.tiers import Tier
from tests.support.sandbox import need_tier

pytestmark = pytest.mark.timeout(600)  # longer than the suite's default (pyproject.toml)

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bots" / "examples" / "trained_policy"


def _validate(target: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena_cli.main", "validate", str(target)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_the_trained_policy_runs_as_a_folder_and_as_a_zip(tmp_path: Path) -> None:
    need_tier(Tier.FULL)
    archive = tmp_path / "trained_policy.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in PACKAGE.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                zf.write(path, f"trained_policy/{path.relative_to(PACKAGE)}")
    for target in (PACKAGE, archive):
        result = _validate(target)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "(bot 'trained-policy')" in result.stdout and "sandbox: tier FULL" in result.stdout
