"""The replay viewer in a real browser (Debian's Chromium driven by Playwright): it loads
once and plays in place (no page load, no scrolling, no history entry per step) fast
enough for 20 steps/s, draws what the server draws, ends on a winner banner, and a
seat's view never receives the other hands. Screenshots at 1366×900 and 390×844 go to
``.artifacts/screenshots/``."""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

import pytest

from catan_arena.matches.models import Match
from catan_arena.matches.selectors import replay_of
from tests.support.browser import SHOTS

pytestmark = pytest.mark.django_db(transaction=True)
SIZES = {"1366x900": (1366, 900), "390x844": (390, 844)}
PLAYED = 200


def steps_of(match_id: int) -> int:
    return len(replay_of(Match.objects.get(pk=match_id))["steps"])  # type: ignore[index]


def open_viewer(browser: Any, site: dict[str, Any], query: str = "", size: str = "1366x900") -> Any:
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{site['url']}/matches/{site['match']}/replay/{query}")
    page.wait_for_selector("#replay[data-ready]")
    return page


@pytest.mark.serial  # it times the drawing: alone, after the parallel suite
def test_playing_200_steps_at_20_per_second_draws_in_place(
    browser: Any, site: dict[str, Any]
) -> None:
    steps = steps_of(site["match"])
    assert steps > PLAYED, f"the game is too short to play {PLAYED} steps"
    page = open_viewer(browser, site)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down at the charts
    before = page.evaluate(
        """() => {
          window.notReloaded = true;
          const start = scrollY;  // the farthest the page moved from here, at any event
          window.scrolls = 0;
          addEventListener("scroll", () => {
            window.scrolls = Math.max(window.scrolls, Math.abs(scrollY - start));
          });
          return {scroll: scrollY, history: history.length};
        }"""
    )
    assert before["scroll"] > 0
    page.select_option("#speed", "50")  # 20 steps/s
    began = time.monotonic()
    page.keyboard.press(" ")  # play (a key: a click would scroll the button into view)
    deadline = began + 60
    while page.evaluate("window.replayViewer.timings.length") < PLAYED:  # (no string
        assert time.monotonic() < deadline  # predicates: the CSP forbids eval)
        time.sleep(0.02)
    elapsed = time.monotonic() - began
    page.keyboard.press(" ")  # pause
    after = page.evaluate(
        """() => ({scroll: scrollY, history: history.length, scrolls: window.scrolls,
                  same: window.notReloaded === true, url: location.search,
                  step: Number(document.querySelector(".scrub input").value),
                  timings: window.replayViewer.timings})"""
    )
    draws = after["timings"][:PLAYED]
    median = statistics.median(draws)
    print(f"200 steps in {elapsed:.2f} s; draw median {median:.2f} ms, max {max(draws):.2f} ms")
    assert median <= 16, draws
    assert after["same"], "the page was reloaded"
    assert after["scroll"] == before["scroll"] and after["scrolls"] == 0  # moved 0 px, ever
    assert after["history"] == before["history"]  # the URL follows without new entries
    assert after["url"] == f"?step={after['step']}" and after["step"] >= PLAYED
    assert PLAYED / elapsed >= 12, f"{PLAYED / elapsed:.1f} steps/s at 20 steps/s"
    page.wait_for_timeout(300)
    assert page.evaluate("Number(document.querySelector('.scrub input').value)") == after["step"]


def test_the_browser_draws_each_step_as_the_server_does(browser: Any, site: dict[str, Any]) -> None:
    """A step reached in the browser (from step 0, by scrubbing) against the same step
    drawn by the server: the same pieces, robber, highlight, words, dice and panels."""
    parts = ["#pieces", "#robber", "#last-move"]
    clip = """() => [document.querySelector('#points-so-far rect').getAttribute('width'),
                     document.querySelector('.chart-points .marker').getAttribute('x1')]"""
    texts = ["#step-title", "#event", "#dice", ".players", "#events", "#luck"]
    steps = steps_of(site["match"])
    for step in (2, 61, steps - 1, steps):
        server = open_viewer(browser, site, f"?step={step}")
        drawn = [server.inner_html(p) for p in parts] + [server.inner_text(t) for t in texts]
        shown_to, marker = server.evaluate(clip)  # the points lines end at the step
        assert float(shown_to) == pytest.approx(float(marker), abs=0.1), step
        server.context.close()
        page = open_viewer(browser, site)
        page.evaluate(f"window.replayViewer.show({step})")
        assert [page.inner_html(p) for p in parts] == drawn[:3], step
        assert [page.inner_text(t) for t in texts] == drawn[3:], step
        assert page.evaluate(clip) == [shown_to, marker], step
        assert page.evaluate("location.search") == f"?step={step}"
        page.context.close()


def test_the_last_step_shows_the_winner_and_the_points_breakdown(
    browser: Any, site: dict[str, Any]
) -> None:
    result = replay_of(Match.objects.get(pk=site["match"]))["result"]  # type: ignore[index]
    page = open_viewer(browser, site, "?step=5")
    assert not page.locator("#ending").is_visible()
    page.keyboard.press("End")
    banner = page.locator("#ending")
    banner.wait_for(state="visible")
    text = banner.inner_text()
    assert "wins" in text
    for heading in ("Settlements", "Cities", "Longest Road", "Largest Army", "VP cards"):
        assert heading in text
    rows = banner.locator("tbody tr")
    assert rows.count() == len(result["points"])
    assert rows.first.locator("td").nth(2).inner_text() == str(max(result["points"]))
    assert page.locator("#play").is_disabled()
    assert not page.locator("#forward").is_visible()
    page.keyboard.press("ArrowLeft")
    banner.wait_for(state="hidden")


def test_step_zero_reads_on_one_line(browser: Any, site: dict[str, Any]) -> None:
    page = open_viewer(browser, site, size="390x844")
    item = page.locator("#events li").first
    assert item.inner_text().split() == ["0", "The", "board", "is", "set."]
    line = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#events li')).lineHeight)"
    )
    assert item.bounding_box()["height"] < 1.5 * line  # one line, not one word per line


def test_a_seat_view_never_receives_the_other_hands(browser: Any, site: dict[str, Any]) -> None:
    """Everything the browser receives for seat 2's view: no other seat's hand, no
    hidden victory-point card of another seat, no seed. Control: the all-seeing view's
    data holds every hand."""
    data = replay_of(Match.objects.get(pk=site["match"]))
    assert data is not None
    received: list[str] = []
    page = browser.new_page()
    page.on(
        "response",
        lambda r: received.append(
            r.text() if r.ok and "json" in r.headers.get("content-type", "") else ""
        ),
    )
    page.goto(f"{site['url']}/matches/{site['match']}/replay/?step=30&view=1")
    page.wait_for_selector("#replay[data-ready]")
    documents = [json.loads(body) for body in received if body]
    assert len(documents) == 1
    document = documents[0]
    assert "seed" not in document and str(data["seed"]) not in "".join(received)
    for frame in document["frames"]:
        assert frame["h"][0] is None and frame["h"][2] is None and frame["h"][1] is not None
    html = page.content()
    assert html.count('class="hand hidden"') == 2 and str(data["seed"]) not in html
    everything = page.evaluate(
        f"fetch('/matches/{site['match']}/replay/data/').then(r => r.json())"
    )
    assert all(h is not None for frame in everything["frames"] for h in frame["h"])  # control


def test_screenshots_of_the_viewer(browser: Any, site: dict[str, Any]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    steps = steps_of(site["match"])
    for size in SIZES:
        page = open_viewer(browser, site, "?step=60", size=size)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1, (size, overflow)
        page.screenshot(path=str(SHOTS / f"replay-step-60-{size}.png"), full_page=True)
        page.evaluate(f"window.replayViewer.show({steps})")
        page.screenshot(path=str(SHOTS / f"replay-end-{size}.png"), full_page=True)
        page.context.close()
    for name in ("replay-step-60", "replay-end"):
        assert all((SHOTS / f"{name}-{size}.png").stat().st_size > 5000 for size in SIZES)
