"""Production settings: ``manage.py check --deploy`` is clean with what a server sets
(DEBUG off, a secret from the environment, allowed hosts, HTTPS behind its proxy), and
the HTTPS switch is what makes it so (the control: without it, the check complains)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def check_deploy(tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CATAN_"))}
    env |= {
        "DJANGO_SETTINGS_MODULE": "catan_arena.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_DEBUG": "false",
        "DJANGO_ALLOWED_HOSTS": "arena.example.com",
        "CATAN_ARENA_DATA": str(tmp_path),
        **extra,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_check_deploy_is_clean_with_the_production_settings(tmp_path: Path) -> None:
    run = check_deploy(tmp_path, CATAN_ARENA_HTTPS="true")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout


@pytest.mark.parametrize("missing", ["CATAN_ARENA_HTTPS", "DJANGO_DEBUG"])
def test_control_without_https_or_with_debug_the_check_complains(
    tmp_path: Path, missing: str
) -> None:
    extra = {"CATAN_ARENA_HTTPS": "true"}
    if missing == "CATAN_ARENA_HTTPS":
        extra.pop("CATAN_ARENA_HTTPS")
    else:
        extra["DJANGO_DEBUG"] = "true"
    run = check_deploy(tmp_path, **extra)
    assert run.returncode != 0
    assert ("W008" in run.stderr) if missing == "CATAN_ARENA_HTTPS" else ("W018" in run.stderr)
