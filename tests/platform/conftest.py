"""Fixtures of the platform's tests: authors and their bots, zips, server mode on the
suite's own Redis, Celery workers, a browser, a played site (helpers: ``tests.support``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from catan_arena.accounts.models import User
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, run_match
from catan_arena.ratings.models import Rating
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.services import create_round_robin
from tests.support.bots import make_zip
from tests.support.celery_worker import redis_url
from tests.support.records import FAST, active_bots, database_url


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


@pytest.fixture
def zip_of() -> Callable[..., bytes]:
    return make_zip


@pytest.fixture
def subprocess_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of processes that must use this test's database: spawned local
    workers inherit it, Celery workers get it explicitly."""
    monkeypatch.setenv("DATABASE_URL", database_url())
    return dict(os.environ)


@pytest.fixture
def server_mode(settings: Any, subprocess_env: dict[str, str]) -> Iterator[dict[str, str]]:
    """Server mode for this test: services queue Celery tasks on the suite's own Redis
    (a database of this test worker's own); returns the environment for real workers."""
    from catan_arena.celery import app

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


@pytest.fixture
def played(three_authors_bots: list[BotVersion]) -> Match:
    """A finished game of a tournament that also moves the ladder."""
    fast = MatchLimits(decision_seconds=0.3, time_bank_seconds=1.0)
    tournament = create_round_robin("autumn cup", three_authors_bots, limits=fast, ladder=True)
    match = tournament.matches.order_by("id").first()
    assert match is not None and run_match(match.pk) == "finished"
    match.refresh_from_db()
    return match


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


@pytest.fixture
def site(live_server: Any, three_authors_bots: list[BotVersion]) -> dict[str, Any]:
    """A played tournament game (ratings, a finished match)."""
    tournament = create_round_robin("autumn cup", three_authors_bots, limits=FAST, ladder=True)
    match = tournament.matches.order_by("id").first()
    assert match is not None and run_match(match.pk) == "finished"
    names = sorted(r.version.bot.name for r in Rating.objects.select_related("version__bot"))
    return {"url": live_server.url, "match": match.pk, "names": names, "cup": tournament.pk}
