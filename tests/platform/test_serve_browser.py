"""The issue's "done when", in a real browser against ``make serve``'s process tree on a
fresh data folder, with no other command run: a person signs up (the first account
organizes), uploads a bot through the form and sees it validated within 15 s and
playing ladder games within a minute (a broken file is rejected with its report just as
fast); a tournament created and started on the site finishes with standings; the
author's command line logs in, ``upload --wait`` and ``ab-test --wait`` return."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.bots import SOURCES, VALID_BOT
from tests.support.browser import PASSWORD, SHOTS
from tests.support.serve_tree import ROOT, ServeTree, embedded_env, wait_for

pytestmark = pytest.mark.timeout(900)  # longer than the suite's default (pyproject.toml)

VALIDATED_WITHIN = 15.0
"""Seconds from an upload to its verdict (the issue's bound)."""


def query(data: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(data / "db.sqlite3", timeout=30) as db:
        return db.execute(sql, args).fetchall()


def version_status(data: Path, bot: str, number: int) -> str:
    rows = query(
        data,
        "SELECT v.status FROM submissions_botversion v JOIN submissions_bot b ON b.id = v.bot_id"
        " WHERE b.name = ? AND v.number = ?",
        bot,
        number,
    )
    return str(rows[0][0]) if rows else "missing"


def ladder_games(data: Path, bot: str, *statuses: str) -> int:
    """The bot's ladder games in ``statuses`` (default: finished)."""
    wanted = statuses or ("finished",)
    rows = query(
        data,
        "SELECT count(*) FROM matches_matchseat s JOIN matches_match m ON m.id = s.match_id"
        " JOIN submissions_botversion v ON v.id = s.version_id"
        " JOIN submissions_bot b ON b.id = v.bot_id"
        f" WHERE b.name = ? AND m.ladder AND m.status IN ({', '.join('?' * len(wanted))})",
        bot,
        *wanted,
    )
    return int(rows[0][0])


def cli(serve: ServeTree, config: Path, *args: str, stdin: str = "") -> str:
    env = embedded_env(serve.data) | {
        "CATAN_ARENA_SERVER": serve.url,
        "CATAN_ARENA_CONFIG_DIR": str(config),
    }
    run = subprocess.run(
        [str(Path(sys.executable).parent / "catan-arena"), *args],
        cwd=ROOT, env=env, input=stdin, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, f"{args}: {run.stdout}\n{run.stderr}\n{serve.output()[-3000:]}"
    return run.stdout


@pytest.fixture
def serve(tmp_path: Path) -> Any:
    tree = ServeTree(
        tmp_path / "data", make=True, CATAN_ARENA_TOURNAMENT_TICK_SECONDS="1"
    ).wait_ready()
    yield tree
    tree.stop()


def upload_through_the_form(page: Any, url: str, name: str, path: Path) -> float:
    page.goto(f"{url}/upload/")
    page.fill('input[name="name"]', name)
    page.set_input_files('input[name="file"]', str(path))
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url(f"**/bots/{name}/")
    return time.monotonic()


def test_make_serve_runs_the_whole_platform(browser: Any, serve: ServeTree, tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page()
    page.goto(f"{serve.url}/sign-up/")
    page.fill('input[name="username"]', "ada")
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.get_by_role("button", name="Make my account").click()
    page.wait_for_url(f"{serve.url}/")
    assert "first account" in page.inner_text("ul.messages")

    good, broken = tmp_path / "wanderer.py", tmp_path / "broken.py"
    good.write_bytes(VALID_BOT)
    broken.write_bytes(SOURCES["syntax error"][0])
    sent = upload_through_the_form(page, serve.url, "wanderer", good)
    page.locator("#version-1 .status", has_text="active").wait_for(timeout=60_000)
    assert time.monotonic() - sent < VALIDATED_WITHIN, "validated too late"
    sent = upload_through_the_form(page, serve.url, "broken", broken)
    page.locator("#version-1 .status", has_text="rejected").wait_for(timeout=60_000)
    assert time.monotonic() - sent < VALIDATED_WITHIN, "rejected too late"
    assert "SyntaxError" in page.inner_text("#version-1 pre")  # a rejection shows its report

    # the ladder: the house bots are on it from the start; the new bot is seated at once
    # and its first table played next (a newcomer's table is waited for), within a minute
    playing = ("running", "finished")
    wait_for(lambda: ladder_games(serve.data, "wanderer", *playing) > 0, 60, "a ladder game", serve)

    # a tournament created and started on the site
    page.goto(f"{serve.url}/tournaments/new/")
    page.fill('input[name="name"]', "serve cup")
    page.select_option('select[name="table_size"]', "3")
    page.fill('input[name="decision_seconds"]', "0.3")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url("**/tournaments/*/")
    assert "is open: enter the bots next" in page.inner_text("ul.messages")
    for name in ("wanderer", "random", "heuristic"):
        option = page.locator('#enter-form select[name="version"] option', has_text=name)
        page.select_option(
            '#enter-form select[name="version"]', option.first.get_attribute("value")
        )
        page.locator("#enter-form button").click()
        page.locator("#entries li", has_text=name).wait_for()
    page.get_by_role("button", name="Start now").click()
    page.locator("#tournament-status", has_text="finished").wait_for(timeout=240_000)
    standings = page.inner_text("#standings")
    assert all(name in standings for name in ("wanderer", "random", "heuristic"))
    page.screenshot(path=str(SHOTS / "serve-tournament-desktop.png"), full_page=True)

    wait_for(lambda: ladder_games(serve.data, "wanderer") > 0, 120, "a ladder game's end", serve)

    # the author's command line against the same process tree
    config = tmp_path / "config"
    cli(serve, config, "login", "--username", "ada", "--password-stdin", stdin=PASSWORD + "\n")
    second = tmp_path / "wanderer2.py"
    second.write_bytes(VALID_BOT + b"\n# version 2\n")
    out = cli(serve, config, "upload", str(second), "--name", "wanderer", "--wait")
    assert "active" in out and version_status(serve.data, "wanderer", 2) == "active"
    out = cli(serve, config, "ab-test", "wanderer:1", "wanderer:2", "--max-pairs", "2", "--wait")
    ab = query(serve.data, "SELECT status FROM abtests_abtest")
    assert ab and ab[0][0] != "running", out
