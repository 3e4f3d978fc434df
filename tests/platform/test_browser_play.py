"""A person plays against bots in a real browser (Debian's Chromium driven by Playwright)
against a live test server and a real ``celery worker`` (issue 23): sign up, start a game
against ``heuristic`` and two ``random`` bots from the bot's page, place both set-up
settlements and roads by clicking the board, roll, trade with the bank, build when the
dice allow, to the end or a step limit, then leave: the autopilot finishes and the match
and its replay are there. A second person
closes the tab, comes back to the same decision, then leaves for good."""

from __future__ import annotations

import time
from typing import Any

import pytest

from catan_arena.matches.models import Match
from catan_arena.submissions.services import register_builtins
from tests.support.browser import PASSWORD, SHOTS
from tests.support.celery_worker import CeleryWorker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]
AWAY = 8.0
"""Seconds unseen before the autopilot plays the rest (set when the game starts)."""
DECISIONS = 120
"""The step limit: the person's decisions after the set-up."""


def sign_up(browser: Any, url: str, name: str) -> Any:
    """A new account's page (``browser``: a browser or one of its contexts)."""
    page = browser.new_page()
    page.goto(f"{url}/sign-up/")
    page.fill('input[name="username"]', name)
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.get_by_role("button", name="Make my account").click()
    page.wait_for_url(lambda u: "/sign-up/" not in u)
    return page


def start_game(page: Any, url: str) -> int:
    """From the heuristic bot's page: 4 players, random bots filling, seat 1."""
    page.goto(f"{url}/bots/heuristic/")
    page.select_option('select[name="players"]', "4")
    page.select_option('select[name="fillers"]', "random")
    page.select_option('select[name="seat"]', "0")
    page.get_by_role("button", name="Play against this bot").click()
    page.wait_for_url("**/play/*/")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def click_spot(page: Any, kind: str) -> None:
    """Click the first highlighted spot of ``kind`` (and its first choice, if asked)."""
    page.locator(f"#play-spots .spot-{kind}").first.click(force=True)
    dialog = page.locator(".play-dialog button[data-type]")
    if dialog.count():
        dialog.first.click()


def set_up(page: Any) -> None:
    """Both set-up settlements and roads, clicked on the board."""
    for _ in range(2):
        page.wait_for_selector("#play-spots .spot-node", timeout=60_000)
        click_spot(page, "node")
        page.wait_for_selector("#play-spots .spot-edge", timeout=60_000)
        click_spot(page, "edge")


def trade_for_a_road(page: Any) -> None:
    """Trade with the bank for brick or lumber (a road), giving neither, or else the
    first trade the bank offers (a single one is made by the button itself)."""
    page.locator('#play-choices button[data-type="maritime_trade"]').first.click()
    options = page.locator('.play-dialog button[data-type="maritime_trade"]')
    if not options.count():
        return
    for i in range(options.count()):
        words = options.nth(i).inner_text()
        gives = words.split(" for ")[0]
        if (
            words.endswith(("1 brick", "1 lumber"))
            and "brick" not in gives
            and "lumber" not in gives
        ):
            options.nth(i).click()
            return
    options.first.click()  # none for a road: any trade the bank offers


def one_decision(page: Any, done: set[str], trades: list[int]) -> bool:
    """Play the decision waiting (False once the game is over): roll, build what can be
    built, trade with the bank toward a road (twice a turn at most), move the robber,
    discard, else end the turn."""
    offered = '#play-choices:not([data-step=""]) button[data-type], #play-spots .spot'
    page.wait_for_selector(f"{offered}, #play-over", timeout=120_000)
    if page.locator("#play-over").count():
        return False
    step = page.get_attribute("#play-choices", "data-step")
    try:
        return _decide(page, done, trades)
    finally:  # the decision taken: wait until the page no longer offers it
        page.wait_for_selector(f'#play-choices:not([data-step="{step}"])', timeout=60_000)


def _decide(page: Any, done: set[str], trades: list[int]) -> bool:
    buttons = page.locator("#play-choices button[data-type]")
    kinds = [buttons.nth(i).get_attribute("data-type") for i in range(buttons.count())]
    spots = page.locator("#play-spots .spot")
    if spots.count():
        kind = spots.first.get_attribute("data-kind")
        done.add("robber" if kind == "hex" else "build")
        click_spot(page, str(kind))
        return True
    if "maritime_trade" in kinds and trades[-1] < 2:
        trade_for_a_road(page)
        trades[-1] += 1
        done.add("traded")
        return True
    for wanted in ("roll_dice", "discard", "end_turn"):
        if wanted in kinds:
            page.locator(f'#play-choices button[data-type="{wanted}"]').first.click()
            dialog = page.locator(".play-dialog button[data-type]")
            if dialog.count():
                dialog.first.click()
            done.add({"roll_dice": "rolled"}.get(wanted, wanted))
            if wanted == "end_turn":
                trades.append(0)
            return True
    page.locator("#play-choices button[data-type]").first.click()
    return True


def finished(match_id: int) -> bool:
    return Match.objects.get(pk=match_id).status in Match.DONE


def test_a_person_plays_against_bots_in_the_browser(
    browser: Any, live_server: Any, server_mode: dict[str, str], workers: list[Any],
    settings: Any,
) -> None:  # fmt: skip
    register_builtins()
    settings.PERSON_AWAY_SECONDS = AWAY
    workers.append(CeleryWorker(server_mode, concurrency=1))
    page = sign_up(browser, live_server.url, "lin")
    match_id = start_game(page, live_server.url)
    set_up(page)
    done: set[str] = set()
    trades = [0]
    for _ in range(DECISIONS):
        if {"rolled", "build", "traded"} <= done or not one_decision(page, done, trades):
            break
        time.sleep(0.3)  # the page posts, the worker moves on
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "play.png"), full_page=True)
    # a build after the set-up depends on the dice (the seed is fresh): when the board
    # offered one it was clicked ("build"); rolling and the bank's trade always come
    assert {"rolled", "traded"} <= done, done
    assert page.locator("#play-error").is_hidden()
    page.close()  # the person leaves: the autopilot finishes the game
    wait_for(lambda: finished(match_id), 300, "the game finished", workers[0])
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished" and match.kind == "person" and not match.ladder
    steps = Match.objects.get(pk=match_id).turns
    assert steps
    page = browser.new_page()
    page.goto(f"{live_server.url}/matches/{match_id}/")
    assert "A game with a person against bots (never rated)" in page.inner_text("main")
    assert "lin" in page.inner_text("table.seats")
    page.goto(f"{live_server.url}/matches/{match_id}/replay/")
    assert page.locator("svg.board").count() == 1


def test_a_person_who_leaves_comes_back_then_the_autopilot_finishes(
    browser: Any, live_server: Any, server_mode: dict[str, str], workers: list[Any],
    settings: Any,
) -> None:  # fmt: skip
    register_builtins()
    settings.PERSON_AWAY_SECONDS = 20.0  # the reload below takes far less
    workers.append(CeleryWorker(server_mode, concurrency=1))
    context = browser.new_context()
    page = sign_up(context, live_server.url, "mo")
    match_id = start_game(page, live_server.url)
    page.wait_for_selector("#play-spots .spot-node", timeout=60_000)
    click_spot(page, "node")
    page.wait_for_selector("#play-spots .spot-edge", timeout=60_000)
    page.close()  # the tab closed mid-decision
    again = context.new_page()
    again.goto(f"{live_server.url}/play/{match_id}/")
    again.wait_for_selector("#play-spots .spot-edge", timeout=30_000)  # the same decision
    click_spot(again, "edge")
    again.wait_for_selector("#play-choices .note", timeout=30_000)
    again.close()  # gone for good: 20 s later the autopilot plays the rest
    wait_for(lambda: finished(match_id), 300, "the autopilot finished", workers[0])
    last = context.new_page()
    last.goto(f"{live_server.url}/play/{match_id}/")
    last.wait_for_selector("#play-over", timeout=30_000)
    assert "the replay" in last.inner_text("#play-over")
    seat = Match.objects.get(pk=match_id).seats.get(seat=0)
    assert seat.forfeit is not None and "away" in seat.forfeit["reason"]
