"""Fixtures of the platform's tests: authors, bot sources, zips."""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from catan_arena.accounts.models import User
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version

VALID_BOT = b'''
from bots import Player


class Wanderer(Player):
    """A random legal action, never a trade offer (a valid, weak bot)."""

    def act(self, observation):
        legal = observation.legal_actions
        plain = [a for a in legal if type(a).__name__ != "ProposeTrade"] or legal
        return self.rng.choice(plain)
'''

SOURCES = {
    "syntax error": (b"from bots import Player\nclass Broken(Player:\n    pass\n", "SyntaxError"),
    "no Player": (b"X = 1\n", "found 0"),
    "two Players": (
        b"from bots import Player\n"
        b"class A(Player):\n    def act(self, o):\n        return o.legal_actions[0]\n"
        b"class B(Player):\n    def act(self, o):\n        return o.legal_actions[0]\n",
        "found 2",
    ),
    "crash at import": (b"raise RuntimeError('boom at import')\n", "boom at import"),
}


@pytest.fixture(autouse=True)
def _close_worker_runner() -> Iterator[None]:
    """Tests that play in this process kill its blank sandboxes afterwards (other tests
    of this process check that no bot process or cgroup of it outlives a match)."""
    yield
    from catan_arena.matches.play import close_worker_runner

    close_worker_runner()


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Each test starts with an empty cache: the log-in limit's counts, the rate limits
    (a test's wrong passwords from 127.0.0.1 must not lock the next test out)."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def author(db: None) -> User:
    return User.objects.create_user("ada", password="not-used-here-4521")


@pytest.fixture
def other_author(db: None) -> User:
    return User.objects.create_user("grace", password="not-used-here-4521")


def make_zip(files: dict[str, bytes], *, symlinks: tuple[str, ...] = ()) -> bytes:
    """A zip of ``files`` (names as given, unchecked) and symlink entries."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
        for name in symlinks:
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o120777 << 16) | 0x20
            info.create_system = 3
            zf.writestr(info, "/etc/passwd")
    return buffer.getvalue()


@pytest.fixture
def zip_of() -> Callable[..., bytes]:
    return make_zip


def active_bots(owner: User, count: int) -> list[BotVersion]:
    """``count`` distinct valid bots of ``owner``, active (validation is tested on its
    own; these only need to play)."""
    versions = []
    for i in range(count):
        source = VALID_BOT + f"\n# bot {i}\n".encode()
        version = upload_version(owner, f"bot-{owner.username}-{i}", "bot.py", source).version
        version.status = BotVersion.Status.ACTIVE
        version.save(update_fields=["status"])
        versions.append(version)
    return versions


def database_url() -> str:
    """The URL of the database this test worker uses (the ``test_`` one)."""
    from django.db import connection

    return f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}"


@pytest.fixture
def subprocess_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of processes that must use this test's database: spawned local
    workers inherit it, Celery workers get it explicitly."""
    import os

    monkeypatch.setenv("DATABASE_URL", database_url())
    return dict(os.environ)


@pytest.fixture
def server_mode(settings: Any, subprocess_env: dict[str, str]) -> Iterator[dict[str, str]]:
    """Server mode for this test: services queue Celery tasks on this machine's Redis
    (a database of this test worker's own); returns the environment for real workers."""
    from catan_arena.celery import app
    from tests.platform.celery_worker import redis_url

    url = redis_url()
    settings.CELERY_BROKER_URL = url
    settings.EMBEDDED = False
    app.conf.broker_url = url
    yield subprocess_env | {"CELERY_BROKER_URL": url}
    settings.EMBEDDED = True


@pytest.fixture
def workers() -> Iterator[list[Any]]:
    """Collects the test's Celery workers and stops them all at the end."""
    started: list[Any] = []
    yield started
    for worker in started:
        worker.stop()


@pytest.fixture
def three_authors_bots(author: User, other_author: User) -> list[BotVersion]:
    """One active bot each of three authors (a table needs different authors)."""
    third = User.objects.create_user("hedy", password="not-used-here-4521")
    return [*active_bots(author, 1), *active_bots(other_author, 1), *active_bots(third, 1)]


def assert_one_board_and_dice(replays: list[dict[str, Any] | None]) -> None:
    """Duplicate rotations: one board, and the same dice for as long as every game lasts."""
    assert len({repr(r["board"]) for r in replays if r}) == 1
    dice = [
        [s["outcome"] for s in r["steps"] if s["action"]["type"] == "roll_dice"]
        for r in replays
        if r
    ]
    shortest = min(len(d) for d in dice)
    assert shortest > 10 and all(d[:shortest] == dice[0][:shortest] for d in dice)


@pytest.fixture
def eight_authors_bots() -> list[BotVersion]:
    """One active bot each of eight authors."""
    people = [User.objects.create_user(f"author{i}", password="x-4521-y") for i in range(8)]
    return [active_bots(person, 1)[0] for person in people]


CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    # Playwright's sync API runs an event loop in this thread; the test database's own
    # set-up and flush around it are plain synchronous ORM calls (Django's documented
    # switch for this case)
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()
