"""A running match followed in a real browser (Debian's Chromium driven by Playwright):
the match page's viewer (``static/web/viewer.js``) appends the steps the worker writes
(here written into ``Match.live`` by the test, cut from a real game's replay, as the
worker would), draws the newest step as the replay viewer draws it, waits for the
spectator who stepped back, and at the end shows the finished replay with the winner
banner: no reload, no scrolling, no history entry. Screenshots of the match page, live
and finished, at 1366×900 and 390×844 go to ``.artifacts/screenshots/``."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.selectors import replay_of
from tests.support.browser import SHOTS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]
SIZES = {"1366x900": (1366, 900), "390x844": (390, 844)}
WATCH = """() => {
  window.notReloaded = true;
  window.scrolledTo = [];
  addEventListener("scroll", () => { window.scrolledTo.push(scrollY); });
  return {scroll: scrollY, history: history.length};
}"""
LOOK = """() => ({scroll: scrollY, history: history.length, scrolls: window.scrolledTo,
                 same: window.notReloaded === true, url: location.search})"""


def cut(replay: dict[str, Any], steps: int) -> dict[str, Any]:
    """What the worker writes after ``steps`` steps (:mod:`catan_arena.matches.live`)."""
    return {**replay, "steps": replay["steps"][:steps], "result": None, "meta": {}}


def write(pk: int, live: dict[str, Any] | None, **fields: Any) -> None:
    Match.objects.filter(pk=pk).update(live=live, **fields)


RESULT = ("points", "placing", "won", "decisions", "mean_decision_ms", "max_decision_ms",
          "bank_left_seconds")  # fmt: skip


def unfinish(pk: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Make the played match ``pk`` look started and not yet played (as before its
    worker's first write); returns its result, to put back when it "finishes"."""
    match = Match.objects.filter(pk=pk).values("turns", "termination", "winner_seat").get()
    seats = list(MatchSeat.objects.filter(match_id=pk).values("pk", *RESULT))
    blank = dict.fromkeys(RESULT) | {"won": False, "decisions": 0}
    MatchSeat.objects.filter(match_id=pk).update(**blank)
    write(pk, None, status=Match.Status.RUNNING, finished_at=None, turns=None, termination="",
          winner_seat=None)  # fmt: skip
    return match, seats


def finish(pk: int, result: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    """What recording the result does to the match (``record_result``)."""
    match, seats = result
    for seat in seats:
        MatchSeat.objects.filter(pk=seat.pop("pk")).update(**seat)
    write(pk, None, status=Match.Status.FINISHED, finished_at=timezone.now(), **match)


def title(page: Any, text: str) -> None:
    """Wait until the viewer's title reads ``text`` (the page polls once a second)."""
    page.locator("#step-title", has_text=text).wait_for(timeout=15_000)


def server_drawn(browser: Any, site: dict[str, Any], step: int) -> list[str]:
    """The board's changing parts as the replay viewer's server draws them at ``step``."""
    page = browser.new_page()
    page.goto(f"{site['url']}/matches/{site['match']}/replay/?step={step}")
    drawn = [page.inner_html(p) for p in ("#pieces", "#robber", "#last-move")]
    page.close()
    return drawn


@pytest.mark.parametrize("size", SIZES)
def test_a_spectator_follows_a_running_match_in_place(
    browser: Any, site: dict[str, Any], size: str
) -> None:
    pk = site["match"]
    replay = replay_of(Match.objects.get(pk=pk))
    assert replay is not None
    steps = len(replay["steps"])
    assert steps > 200
    result = unfinish(pk)  # started, nothing written yet
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{site['url']}/matches/{pk}/")
    assert "taking their seats" in page.inner_text("#live")
    before = page.evaluate(WATCH)

    write(pk, cut(replay, 40))  # the first write: the viewer appears in place
    page.wait_for_selector("#replay[data-ready]")
    title(page, "step 40 of 40")
    assert page.locator(".hand.hidden").count() == 3  # public information only
    assert page.evaluate(LOOK) == before | {"scrolls": [], "same": True, "url": ""}
    page.screenshot(path=str(SHOTS / f"match-live-{size}.png"), full_page=True)

    page.evaluate("window.scrollTo(0, 150)")  # down at the board: it must stay there
    page.wait_for_timeout(300)  # (its own scroll event)
    before = page.evaluate(WATCH)
    assert before["scroll"] == 150
    write(pk, cut(replay, 80))
    title(page, "step 80 of 80")  # followed: the newest step, drawn as the server draws it
    assert [page.inner_html(p) for p in ("#pieces", "#robber", "#last-move")] == (
        server_drawn(browser, site, 80)
    )
    page.keyboard.press("ArrowLeft")  # the spectator steps back...
    title(page, "step 79 of 80")
    write(pk, cut(replay, 120))
    title(page, "step 79 of 120")  # ...and stays there while the match goes on
    assert page.inner_text("#to-live") == "41 new steps · jump to live"
    page.keyboard.press("End")  # back to the newest: following again
    title(page, "step 120 of 120")
    assert not page.locator("#to-live").is_visible()
    write(pk, cut(replay, 160))
    title(page, "step 160 of 160")
    assert page.evaluate(LOOK) == before | {"scrolls": [], "same": True, "url": ""}

    finish(pk, result)  # over: the finished replay, at its end
    page.locator("#ending").wait_for(state="visible", timeout=15_000)
    title(page, f"step {steps} of {steps}")
    assert "wins" in page.inner_text("#ending") or "No winner" in page.inner_text("#ending")
    assert page.locator("#match-head .status.finished").count() >= 1
    assert page.locator("#match-head a.watch").inner_text() == "Watch the replay"
    assert "winner" in page.inner_text("#match-head")  # the head with the result
    assert page.evaluate(LOOK) == before | {"scrolls": [], "same": True, "url": ""}
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"match-finished-live-{size}.png"), full_page=True)
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, overflow
    page.context.close()


def test_screenshots_of_a_finished_match_page(browser: Any, site: dict[str, Any]) -> None:
    for size, (width, height) in SIZES.items():
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(f"{site['url']}/matches/{site['match']}/")
        assert page.locator("a.watch").inner_text() == "Watch the replay"
        page.screenshot(path=str(SHOTS / f"match-finished-{size}.png"), full_page=True)
        page.context.close()


@pytest.fixture(autouse=True)
def _shots_folder() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
