"""The pages in a real browser (Debian's Chromium driven by Playwright) against a live
test server with real data: a spectator reaches a match from the home page, the ladder
sorts. Screenshots of every page at phone and desktop sizes go to
``.artifacts/screenshots/`` for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest

from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.selectors import replay_of
from catan_arena.tournaments.services import TournamentSpec, create_tournament
from tests.support.browser import PASSWORD, SHOTS

pytestmark = pytest.mark.django_db(transaction=True)
SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


def test_a_spectator_reaches_a_match_from_home(browser: Any, site: dict[str, Any]) -> None:
    page = browser.new_page()
    page.goto(site["url"] + "/")
    page.get_by_role("heading", name="Latest results").wait_for()
    page.locator(f'a[href="/matches/{site["match"]}/"]').first.click()
    page.wait_for_url(f"**/matches/{site['match']}/")
    assert "finished" in page.inner_text("h1")
    rows = page.locator("table.list tbody tr")
    assert rows.count() == 3
    assert page.locator("a[download]").count() == 1  # the replay, one click away


def test_a_spectator_follows_a_whole_match_from_home_in_three_clicks(
    browser: Any, site: dict[str, Any]
) -> None:
    page = browser.new_page()
    page.goto(site["url"] + "/")  # no account
    page.locator("#matches-now a.watch").first.click()  # 1: watch
    page.wait_for_url(f"**/matches/{site['match']}/replay/")
    page.wait_for_selector("#replay[data-ready]")  # the game's data is in: it plays in place
    page.select_option("#speed", "100")  # (a choice, not a click)
    page.get_by_role("button", name="▶ play").click()  # 2: play
    page.wait_for_url(lambda url: "?step=" in url and int(url.split("?step=")[1]) >= 3)
    page.get_by_role("button", name="⏸ pause").click()  # 3: stop to look
    stopped = page.url
    page.wait_for_timeout(500)
    assert page.url == stopped  # paused
    steps = len(replay_of(Match.objects.get(pk=site["match"]))["steps"])  # type: ignore[index]
    page.get_by_role("link", name="end »").click()  # or straight to the end
    page.wait_for_url(f"**/replay/?step={steps}")
    assert not page.locator("#forward").is_visible()
    assert f"step {steps} of {steps}" in page.inner_text("h1")
    assert "wins" in page.inner_text("#ending")


def test_the_ladder_renders_and_sorts(browser: Any, site: dict[str, Any]) -> None:
    page = browser.new_page()
    page.goto(site["url"] + "/ladder/")
    bots = page.locator("table.ladder tbody tr td:nth-child(2) a")
    assert bots.count() == 3
    page.get_by_role("link", name="Bot", exact=True).click()
    page.wait_for_url("**/ladder/?sort=bot")
    assert bots.all_inner_texts() == site["names"]


MEAN_LIGHT = """async (png) => {
  const image = new Image();
  image.src = "data:image/png;base64," + png;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) sum += (data[i] + data[i + 1] + data[i + 2]) / 3;
  return sum / (data.length / 4);
}"""
"""The mean lightness (0 black, 255 white) of a PNG, measured by the browser itself."""


def test_a_table_wider_than_a_phone_scrolls_and_shows_it(
    browser: Any, site: dict[str, Any]
) -> None:
    """On a 390 px phone the ladder's table scrolls inside its box (the page does not)
    and a shadow marks the side that has more: the right edge at first, the left one
    once scrolled to the end (the cells' padding keeps text off these 6 px strips)."""
    import base64

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page, blank = context.new_page(), context.new_page()
    page.goto(site["url"] + "/ladder/")
    table = page.locator("table.ladder")
    assert table.evaluate("t => t.scrollWidth - t.clientWidth") > 50  # it scrolls

    def edges() -> tuple[float, float]:
        box = table.bounding_box()
        assert box is not None
        light = []
        for x in (box["x"], box["x"] + box["width"] - 6):
            clip = {"x": x, "y": box["y"], "width": 6, "height": box["height"]}
            png = base64.b64encode(page.screenshot(clip=clip)).decode()
            light.append(blank.evaluate(MEAN_LIGHT, png))
        return light[0], light[1]

    left, right = edges()
    table.evaluate("t => { t.scrollLeft = t.scrollWidth; }")
    left_end, right_end = edges()
    assert left > 250 and right < 240, (left, right)  # more to the right: its edge shaded
    assert left_end < 240 and right_end > 250, (left_end, right_end)  # now the left
    context.close()


def test_screenshots_of_every_page_at_both_sizes(browser: Any, site: dict[str, Any]) -> None:
    pages = {
        "home": "/",
        "ladder": "/ladder/",
        "matches": "/matches/",
        "match": f"/matches/{site['match']}/",
        "replay": f"/matches/{site['match']}/replay/?step=60",
        "bot": f"/bots/{site['names'][0]}/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{site['cup']}/",
        "log-in": "/log-in/",
        "sign-up": "/sign-up/",
        "guide": "/docs/bot-guide/",
        "guide-replays": "/docs/replay-format/",
        "guide-sandbox": "/docs/sandbox/",
    }
    shoot(browser, site["url"], pages)


def test_screenshots_of_the_signed_in_pages_at_both_sizes(
    browser: Any, site: dict[str, Any]
) -> None:
    """An author who also organizes: their bot page, the upload form, API tokens, a
    seat's log, the new-tournament form and a tournament's organizer controls."""
    seat = MatchSeat.objects.select_related("version__bot__owner").get(
        match_id=site["match"], seat=0
    )
    owner = grant_role(seat.version.bot.owner, ORGANIZERS)
    owner.set_password(PASSWORD)
    owner.save()
    create_tournament(owner, TournamentSpec(name="spring cup"), open_entries=True)
    pages = {
        "bot-owner": f"/bots/{seat.version.bot.name}/",
        "upload": f"/upload/?bot={seat.version.bot.name}",
        "tokens": "/account/tokens/",
        "seat-log": f"/matches/{site['match']}/log/0/",
        "tournament-new": "/tournaments/new/",
        "tournament-organizer": f"/tournaments/{site['cup']}/",
    }
    shoot(browser, site["url"], pages, username=owner.username)


def shoot(browser: Any, url: str, pages: dict[str, str], username: str | None = None) -> None:
    """Each page at each size: it answers 200, nothing is wider than the screen but the
    tables' own scrolling boxes, and a full-page screenshot is saved."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        if username is not None:
            page.goto(f"{url}/log-in/")
            page.fill('input[name="username"]', username)
            page.fill('input[name="password"]', PASSWORD)
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(f"{url}/")
        for name, path in pages.items():
            response = page.goto(url + path)
            assert response is not None and response.status == 200, path
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 1, (size, name, overflow)
            page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
        context.close()
    for name in pages:
        assert all((SHOTS / f"{name}-{size}.png").stat().st_size > 5000 for size in SIZES)


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
    # The keys are the viewer's script: pressed only once it holds the game's data (the
    # clicks above may have been plain links that loaded a new page before it did).
    page.wait_for_selector("#replay[data-ready]")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/replay/?step=1")
    page.goto(f"{site['url']}/matches/{site['match']}/replay/?step=40&view=0")
    assert page.locator(".hand.hidden").count() == 2  # seat 1's view: the others hidden
    page.get_by_role("link", name="everything").click()
    page.wait_for_url("**/replay/?step=40")
    assert page.locator(".hand.hidden").count() == 0
