"""The pages that follow work on the workers, in a real browser (Debian's Chromium
driven by Playwright) against a live test server and a real ``celery worker``: an author
uploads through the form and sees the version validated without reloading, an organizer
creates and schedules a tournament that beat starts and whose standings appear, and a
spectator follows a running match that updates in place."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version
from tests.support.bots import VALID_BOT
from tests.support.browser import PASSWORD, SHOTS
from tests.support.celery_worker import CeleryWorker
from tests.support.records import active_bots

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]
SLOW_BOT = b"""
import time

from bots import Player


class Slow(Player):
    \"\"\"A random legal action after 40 ms: a game lasts long enough to watch.\"\"\"

    def act(self, observation):
        time.sleep(0.04)
        legal = observation.legal_actions
        plain = [a for a in legal if type(a).__name__ != "ProposeTrade"] or legal
        return self.rng.choice(plain)
"""
MARK = "window.__noReload = 'still here'"
"""Set in the page: it survives htmx's swaps and the viewer's drawing, and is gone after a
reload."""


def log_in(browser: Any, url: str, username: str) -> Any:
    page = browser.new_page()
    page.goto(f"{url}/log-in/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{url}/")
    return page


def still_the_same_page(page: Any) -> bool:
    return bool(page.evaluate("window.__noReload === 'still here'"))


def test_an_author_uploads_through_the_form_and_sees_it_validated(
    browser: Any, live_server: Any, server_mode: dict[str, str], workers: list[Any],
    tmp_path: Path,
) -> None:  # fmt: skip
    User.objects.create_user("ada", password=PASSWORD)
    workers.append(CeleryWorker(server_mode, concurrency=1))
    page = log_in(browser, live_server.url, "ada")
    page.get_by_role("link", name="Upload").click()
    page.wait_for_url("**/upload/")
    bot = tmp_path / "wanderer.py"
    bot.write_bytes(VALID_BOT)
    page.fill('input[name="name"]', "wanderer")
    page.set_input_files('input[name="file"]', str(bot))
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url("**/bots/wanderer/")
    assert "validation queued" in page.inner_text("ul.messages")
    page.evaluate(MARK)
    status = page.locator("#version-1 .status")
    status.filter(has_text="active").wait_for(timeout=90_000)  # the worker's smoke game
    assert still_the_same_page(page)  # the table followed the validation in place
    page.locator("#version-1 summary").click()
    assert "smoke" in page.inner_text("#version-1 pre")
    page.screenshot(path=str(SHOTS / "bot-owner-desktop.png"), full_page=True)
    # a broken file: refused on the form, with the reason, nothing stored
    page.goto(f"{live_server.url}/upload/?bot=wanderer")
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    page.set_input_files('input[name="file"]', str(broken))
    page.get_by_role("button", name="Upload").click()
    assert page.locator("#error-file").inner_text()
    assert BotVersion.objects.filter(bot__name="wanderer").count() == 1


def test_an_organizer_schedules_a_tournament_and_its_standings_appear(
    browser: Any, live_server: Any, server_mode: dict[str, str], workers: list[Any],
    three_authors_bots: list[BotVersion],
) -> None:  # fmt: skip
    grant_role(User.objects.create_user("boss", password=PASSWORD), ORGANIZERS)
    ticks = {"CATAN_ARENA_TOURNAMENT_TICK_SECONDS": "1"}
    workers.append(CeleryWorker(server_mode | ticks, concurrency=2, beat=True))
    page = log_in(browser, live_server.url, "boss")
    page.goto(f"{live_server.url}/tournaments/")
    page.get_by_role("link", name="New tournament").click()
    page.fill('input[name="name"]', "browser cup")
    page.select_option('select[name="table_size"]', "3")
    page.fill('input[name="decision_seconds"]', "0.3")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url("**/tournaments/*/")
    for version in three_authors_bots:
        page.select_option('#enter-form select[name="version"]', str(version.pk))
        page.locator("#enter-form button").click()
        page.locator("#entries li", has_text=version.bot.name).wait_for()
    soon = timezone.localtime(timezone.now() + timedelta(seconds=3))
    page.fill('#schedule-form input[name="starts_at"]', soon.strftime("%Y-%m-%dT%H:%M:%S"))
    page.get_by_role("button", name="Schedule").click()
    page.locator("ul.messages", has_text="starts at").wait_for()
    page.evaluate(MARK)
    page.locator("#tournament-status", has_text="finished").wait_for(timeout=120_000)
    assert still_the_same_page(page)  # progress and standings arrived by polling
    standings = page.inner_text("#standings")
    assert all(v.bot.name in standings for v in three_authors_bots)
    assert "3 / 3 games" in page.inner_text("#progress")
    page.screenshot(path=str(SHOTS / "tournament-organizer-desktop.png"), full_page=True)


def test_a_spectator_follows_a_live_match_without_reloading(
    browser: Any, live_server: Any, server_mode: dict[str, str], workers: list[Any],
) -> None:  # fmt: skip
    versions = []
    for name in ("ada", "grace", "hedy"):
        owner = User.objects.create_user(name, password=PASSWORD)
        version = upload_version(owner, f"slow-{name}", "slow.py", SLOW_BOT).version
        BotVersion.objects.filter(pk=version.pk).update(status="active")
        versions.append(version)
    workers.append(CeleryWorker(server_mode, concurrency=1))
    match = create_match(versions, limits=MatchLimits(decision_seconds=1.0, time_bank_seconds=5))
    page = browser.new_page()
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.evaluate(MARK)
    page.wait_for_selector("#replay[data-ready]", timeout=60_000)
    first = newest(page)
    assert page.locator(".hand.hidden").count() == 3  # public information only
    deadline = time.monotonic() + 30
    while newest(page) <= first and time.monotonic() < deadline:
        time.sleep(0.3)
    assert newest(page) > first and still_the_same_page(page)  # it moved in place
    # the end: the finished replay with the winner banner, the result and its link
    page.get_by_role("link", name="Watch the replay").wait_for(timeout=240_000)
    assert Match.objects.get(pk=match.pk).status == "finished"
    page.locator("#ending").wait_for(state="visible")
    assert still_the_same_page(page)


def newest(page: Any) -> int:
    """The newest step the live viewer holds ("step 12 of 40": 40)."""
    return int(page.inner_text("#step-title").rsplit(" ", 1)[1])


@pytest.fixture(autouse=True)
def _shots_folder() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)


def test_active_bots_helper_still_makes_players() -> None:
    """A control for the fixtures above: ``active_bots`` makes active versions."""
    owner = User.objects.create_user("ctl", password=PASSWORD)
    assert [v.status for v in active_bots(owner, 2)] == ["active", "active"]
