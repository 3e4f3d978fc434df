"""The pages in a real browser (Debian's Chromium driven by Playwright) against a live
test server with real data: a spectator reaches a match from the home page, the ladder
sorts. Screenshots of every page at phone and desktop sizes go to
``.artifacts/screenshots/`` for a person to look at."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catan_arena.matches.services import MatchLimits, run_match
from catan_arena.ratings.models import Rating
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.services import create_round_robin

pytestmark = pytest.mark.django_db(transaction=True)
CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / ".artifacts" / "screenshots"
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
FAST = MatchLimits(decision_seconds=0.3, time_bank_seconds=1.0)


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


def test_a_spectator_reaches_a_match_from_home(browser: Any, site: dict[str, Any]) -> None:
    page = browser.new_page()
    page.goto(site["url"] + "/")
    page.get_by_role("heading", name="Recent matches").wait_for()
    page.locator(f'a[href="/matches/{site["match"]}/"]').first.click()
    page.wait_for_url(f"**/matches/{site['match']}/")
    assert "finished" in page.inner_text("h1")
    rows = page.locator("table.list tbody tr")
    assert rows.count() == 3
    assert page.locator("a[download]").count() == 1  # the replay, one click away


def test_the_ladder_renders_and_sorts(browser: Any, site: dict[str, Any]) -> None:
    page = browser.new_page()
    page.goto(site["url"] + "/ladder/")
    bots = page.locator("table.ladder tbody tr td:nth-child(2) a")
    assert bots.count() == 3
    page.get_by_role("link", name="Bot", exact=True).click()
    page.wait_for_url("**/ladder/?sort=bot")
    assert bots.all_inner_texts() == site["names"]


def test_screenshots_of_every_page_at_both_sizes(browser: Any, site: dict[str, Any]) -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    pages = {
        "home": "/",
        "ladder": "/ladder/",
        "matches": "/matches/",
        "match": f"/matches/{site['match']}/",
        "replay": f"/matches/{site['match']}/replay/?step=60",
        "bot": f"/bots/{site['names'][0]}/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{site['cup']}/",
    }
    for size, (width, height) in SIZES.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        for name, path in pages.items():
            response = page.goto(site["url"] + path)
            assert response is not None and response.status == 200, path
            # nothing wider than the screen but the tables' own scrolling boxes
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 1, (size, name, overflow)
            page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
        page.close()
    assert len(list(SHOTS.glob("*.png"))) == 2 * len(pages)


def test_the_replay_viewer_steps_and_keeps_the_step_in_the_url(
    browser: Any, site: dict[str, Any]
) -> None:
    page = browser.new_page()
    page.goto(f"{site['url']}/matches/{site['match']}/")
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(f"**/matches/{site['match']}/replay/")
    board = page.locator("svg.board")
    empty = board.inner_html()
    for _ in range(2):
        page.get_by_role("link", name="forward ▶").click()
    page.wait_for_url("**/replay/?step=2")
    assert board.inner_html() != empty  # a settlement appeared
    assert page.locator("svg.board .settlement").count() >= 1
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/replay/?step=1")
    page.goto(f"{site['url']}/matches/{site['match']}/replay/?step=40&view=0")
    assert page.locator(".hand.hidden").count() == 2  # seat 1's view: the others hidden
    page.get_by_role("link", name="everything").click()
    page.wait_for_url("**/replay/?step=40")
    assert page.locator(".hand.hidden").count() == 0
