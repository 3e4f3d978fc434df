"""Settings come from the environment and a bad value stops start-up with its name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_tree import ROOT, embedded_env
from tests.support.services import suite_services


def check(tmp: object, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=embedded_env(tmp) | env,  # type: ignore[arg-type]
        capture_output=True,
        text=True,
        timeout=120,
    )


READ_BACK = (
    "import json; from django.conf import settings as s; db = s.DATABASES['default']; "
    "print(json.dumps([db['ENGINE'], str(db['NAME']), s.CELERY_BROKER_URL, s.EMBEDDED]))"
)


def read_back(tmp: Path, **env: str) -> list[Any]:
    """The database engine and name, the broker and the mode the settings arrive at."""
    run = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", READ_BACK],
        cwd=ROOT, env=embedded_env(tmp) | env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    result: list[Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def test_the_defaults_are_the_embedded_sqlite_and_no_broker(tmp_path: Path) -> None:
    run = check(tmp_path)
    assert run.returncode == 0, run.stderr
    sqlite = "django.db.backends.sqlite3"
    assert read_back(tmp_path) == [sqlite, str(tmp_path / "db.sqlite3"), "", True]
    # the control: the same read-back sees a server's database and broker when named
    services = suite_services()
    server = read_back(
        tmp_path, DATABASE_URL=services.postgres_url("x"), CELERY_BROKER_URL=services.redis_url()
    )
    assert server == ["django.db.backends.postgresql", "x", services.redis_url(), False]


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG='maybe' is not a boolean"),
        ({"CATAN_ARENA_MATCH_ATTEMPTS": "0"}, "CATAN_ARENA_MATCH_ATTEMPTS=0 must be at least 1"),
        ({"CATAN_ARENA_DECISION_SECONDS": "-1"}, "must be positive"),
        ({"CATAN_ARENA_DECISION_SECONDS": "0.01"}, "=0.01 must be at least 0.05"),
        (
            {"CATAN_ARENA_UPLOAD_RATE": "30/fortnight"},
            "CATAN_ARENA_UPLOAD_RATE='30/fortnight' is not a rate",
        ),
        (
            {"CATAN_ARENA_MATCH_ATTEMPTS": "three"},
            "CATAN_ARENA_MATCH_ATTEMPTS='three' is not a whole",
        ),
        (
            {"CATAN_ARENA_TIME_BANK_SECONDS": "-5"},
            "CATAN_ARENA_TIME_BANK_SECONDS=-5 must be at least 0",
        ),
        ({"CATAN_ARENA_WARM_SANDBOXES": "-1"}, "CATAN_ARENA_WARM_SANDBOXES=-1 must be at least 0"),
        ({"CATAN_ARENA_LOG_LEVEL": "loud"}, "CATAN_ARENA_LOG_LEVEL='loud' is not one of"),
        (
            {"CATAN_SANDBOX_REQUIRE_CGROUPS": "of"},
            "CATAN_SANDBOX_REQUIRE_CGROUPS='of' is not a boolean",
        ),
        ({"CATAN_SANDBOX_UIDS": "64000"}, "CATAN_SANDBOX_UIDS='64000': expected FIRST-LAST"),
        ({"DATABASE_URL": "nosuchdb://x/y"}, "nosuchdb"),
    ],
)
def test_a_bad_value_fails_loudly(tmp_path: object, env: dict[str, str], words: str) -> None:
    run = check(tmp_path, **env)
    assert run.returncode != 0
    assert words in run.stderr


def test_the_readme_s_own_words_start_it(tmp_path: object) -> None:
    """The README's boolean words, its ``off`` among them, are read, not refused."""
    run = check(
        tmp_path,
        CATAN_SANDBOX_REQUIRE_CGROUPS="off",
        DJANGO_DEBUG="no",
        CATAN_ARENA_STATIC_MANIFEST="0",
        CATAN_ARENA_HOUSE_BOTS_ON_LADDER="on",
        CATAN_ARENA_LOG_LEVEL="info",
    )
    assert run.returncode == 0, run.stderr
