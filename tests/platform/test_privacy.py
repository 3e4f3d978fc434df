"""A bot's output is its author's; seed groups stay closed (issue 19, parts 2 and 6).

Every private field — what the bot printed, its exception text, its traceback's source
lines, the worker's file paths, host and pid — is looked for on every page and API
answer that shows the thing, anonymously and as another user; the positive control is
its author (or staff, for the worker) seeing it. A seed group with a game still to
play shows no replay, step, dice or position but to staff; once the last game is done
everything opens."""

from __future__ import annotations

import re
import socket
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from catan_arena.accounts.models import User
from catan_arena.accounts.tokens import create_token
from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match, run_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version, validate_version
from catan_arena.web import replay_pages
from tests.support.bots import VALID_BOT
from tests.support.records import FAST, active_bots

pytestmark = pytest.mark.django_db
API = "/api/v1"

PRINTED, RAISED, SOURCE = "PRINTED-SECRET-7f3", "RAISED-SECRET-9c1", "SOURCE-SECRET-44d"

CHATTY = VALID_BOT + f'\n\nprint("{PRINTED}", flush=True)\n'.encode()
"""A valid bot that prints a secret at import."""

CRASHING = f'''
from bots import Player

print("{PRINTED}", flush=True)


class Crasher(Player):
    def act(self, observation):
        raise RuntimeError("{RAISED} " + __file__)  # {SOURCE}
'''.encode()
"""A bot that prints a secret, then raises with a secret and its own path."""

FAULTY = f'''
from bots import Player


class Faulty(Player):
    def act(self, observation):
        print("{PRINTED}", flush=True)
        if len(observation.history) > 20:
            raise RuntimeError("{RAISED} " + __file__)  # {SOURCE}
        legal = observation.legal_actions
        plain = [a for a in legal if type(a).__name__ != "ProposeTrade"] or legal
        return self.rng.choice(plain)
'''.encode()
"""A bot that plays a little, then raises on every decision until it is forfeited."""


def paths_in(text: str) -> set[str]:
    """Absolute file paths named in ``text`` (the worker's, in an author's report)."""
    return set(re.findall(r"(?:/[\w.\-]+){2,}\.py", text))


def site(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        _, key = create_token(user, "privacy")
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def stranger() -> User:
    """Another signed-up user, with no bot in the game."""
    found = User.objects.filter(username="mallory").first()
    return found or User.objects.create_user("mallory", password="x-4521-y")


def validated(owner: User, name: str, source: bytes) -> BotVersion:
    version = upload_version(owner, name, "bot.py", source).version
    validate_version(version.pk)
    version.refresh_from_db()
    return version


# Validation reports ----------------------------------------------------------------


def version_surfaces(version: BotVersion) -> dict[str, Any]:
    """Each place a version's report is shown: name → f(user) → the text served."""
    name = version.bot.name
    return {
        "api list": lambda u: api(u).get(f"{API}/versions/", {"bot": name}).content.decode(),
        "api detail": lambda u: api(u).get(f"{API}/versions/{version.pk}/").content.decode(),
        "bot page": lambda u: site(u).get(f"/bots/{name}/").content.decode(),
        "versions table": lambda u: site(u).get(f"/bots/{name}/versions/").content.decode(),
    }


@pytest.mark.parametrize("surface", ["api list", "api detail", "bot page", "versions table"])
def test_a_rejected_bots_report_is_its_authors(author: User, surface: str) -> None:
    version = validated(author, "crasher", CRASHING)
    assert version.status == "rejected", version.report
    secrets = {"exception text": RAISED, "source line": SOURCE}
    secrets |= {f"path {p}": p for p in paths_in(version.report)}
    assert any(k.startswith("path") for k in secrets), version.report  # the worker's path
    shown = version_surfaces(version)[surface]
    mine = shown(author)
    for field, secret in secrets.items():  # control: its author reads every one
        assert secret in mine, (surface, field)
    for viewer in (None, stranger()):
        text = shown(viewer)
        for field, secret in secrets.items():
            assert secret not in text, (surface, field, viewer)
        assert "rejected" in text and "raised an error in its smoke game" in text, surface


@pytest.mark.parametrize("surface", ["api list", "api detail", "bot page", "versions table"])
def test_what_a_valid_bot_printed_is_its_authors(author: User, surface: str) -> None:
    version = validated(author, "chatty", CHATTY)
    assert version.status == "active", version.report
    shown = version_surfaces(version)[surface]
    assert PRINTED in shown(author), surface  # control
    for viewer in (None, stranger()):
        text = shown(viewer)
        assert PRINTED not in text, (surface, viewer)
        assert "verdict: passed" in text and "smoke game" in text, surface


def test_the_api_gives_the_report_to_its_author_and_the_summary_to_all(author: User) -> None:
    version = validated(author, "crasher", CRASHING)
    for viewer in (None, stranger()):
        body = api(viewer).get(f"{API}/versions/{version.pk}/").json()
        assert body["report"] is None
        assert body["summary"].splitlines()[:2] == [
            "verdict: rejected",
            "reason: raised an error in its smoke game",
        ]
    assert api(author).get(f"{API}/versions/{version.pk}/").json()["report"] == version.report


# Faults, forfeits, the worker ------------------------------------------------------


@pytest.fixture
def faulty_match(author: User, other_author: User) -> Match:
    """A finished match where ``author``'s bot raised until it was forfeited."""
    faulty = upload_version(author, "faulty", "bot.py", FAULTY).version
    BotVersion.objects.filter(pk=faulty.pk).update(status=BotVersion.Status.ACTIVE)
    third = User.objects.create_user("hedy", password="not-used-here-4521")
    versions = [faulty, *active_bots(other_author, 1), *active_bots(third, 1)]
    match = create_match(versions, limits=FAST)
    assert run_match(match.pk) == "finished"
    match.refresh_from_db()
    return match


def match_surfaces(match: Match) -> dict[str, Any]:
    pk = match.pk
    return {
        "api detail": lambda u: api(u).get(f"{API}/matches/{pk}/").content.decode(),
        "api replay": lambda u: api(u).get(f"{API}/matches/{pk}/replay/").content.decode(),
        "match page": lambda u: site(u).get(f"/matches/{pk}/").content.decode(),
    }


@pytest.mark.parametrize("surface", ["api detail", "api replay", "match page"])
def test_a_bots_exception_text_is_its_authors(
    faulty_match: Match, author: User, surface: str
) -> None:
    seat = faulty_match.seats.get(version__bot__name="faulty")
    assert seat.forfeit is not None and seat.faults, seat.faults
    stored = " ".join(f["message"] for f in seat.faults) + seat.forfeit["reason"]
    secrets = {"exception text": RAISED} | {f"path {p}": p for p in paths_in(stored)}
    assert RAISED in stored and len(secrets) > 1, stored
    shown = match_surfaces(faulty_match)[surface]
    if surface != "api replay":  # one replay for all: plain words for everyone
        mine = shown(author)
        for field, secret in secrets.items():  # control: its author reads them
            assert secret in mine, (surface, field)
    for viewer in (None, stranger()):
        text = shown(viewer)
        for field, secret in secrets.items():
            assert secret not in text, (surface, field, viewer)
        assert PRINTED not in text  # the seat's log: its own view, for its author
        assert "raised an error" in text, surface  # the plain reason


@pytest.mark.parametrize("surface", ["api detail", "api replay", "match page"])
def test_no_worker_host_pid_or_path_in_public_match_answers(
    faulty_match: Match, author: User, surface: str
) -> None:
    worker = faulty_match.worker
    host = socket.gethostname()
    assert worker.startswith(f"{host}:") and any(e["worker"] for e in faulty_match.attempt_log)
    shown = match_surfaces(faulty_match)[surface]
    for viewer in (None, stranger(), author):
        text = shown(viewer)
        assert worker not in text and f"{host}:" not in text, (surface, viewer)
    if surface == "api detail":  # control: staff read the whole attempt log
        staff = User.objects.create_user("root", password="x-4521-y", is_staff=True)
        assert worker in shown(staff)


def test_a_seat_log_stays_its_authors(faulty_match: Match, author: User) -> None:
    seat = faulty_match.seats.get(version__bot__name="faulty").seat
    assert (
        PRINTED
        in api(author).get(f"{API}/matches/{faulty_match.pk}/seats/{seat}/log/").json()["log"]
    )
    assert PRINTED in site(author).get(f"/matches/{faulty_match.pk}/log/{seat}/").content.decode()
    assert api(None).get(f"{API}/matches/{faulty_match.pk}/seats/{seat}/log/").status_code == 401
    assert (
        api(stranger()).get(f"{API}/matches/{faulty_match.pk}/seats/{seat}/log/").status_code == 403
    )
    assert (
        site(User.objects.get(username="grace"))
        .get(f"/matches/{faulty_match.pk}/log/{seat}/")
        .status_code
        == 403
    )


# Seed groups -----------------------------------------------------------------------


@pytest.fixture
def played(three_authors_bots: list[BotVersion]) -> Match:
    match = create_match(three_authors_bots, limits=FAST)
    assert run_match(match.pk) == "finished"
    match.refresh_from_db()
    return match


def play_surfaces(match: Match) -> dict[str, Any]:
    """Each way to see a game's play: name → f(user) → (status, text)."""
    pk = match.pk

    def get(client: Any, url: str) -> tuple[int, str]:
        response = client.get(url)
        return response.status_code, response.content.decode(errors="replace")

    return {
        "api replay": lambda u: get(api(u), f"{API}/matches/{pk}/replay/"),
        "replay page": lambda u: get(site(u), f"/matches/{pk}/replay/?step=30"),
        "replay data": lambda u: get(site(u), f"/matches/{pk}/replay/data/?view=1"),
        "position": lambda u: get(site(u), f"/matches/{pk}/replay/position/?step=30"),
    }


@pytest.mark.parametrize("surface", ["api replay", "replay page", "replay data", "position"])
def test_a_seed_group_with_a_game_to_play_shows_no_play(
    played: Match, three_authors_bots: list[BotVersion], surface: str
) -> None:
    rotation = create_match(three_authors_bots[::-1], limits=FAST, seed=played.seed)
    shown = play_surfaces(played)[surface]
    owner = three_authors_bots[0].bot.owner
    for viewer in (None, stranger(), owner):  # its own author included
        status, _ = shown(viewer)
        assert status == 404, (surface, viewer)
    staff = User.objects.create_user("root", password="x-4521-y", is_staff=True)
    assert shown(staff)[0] == 200, surface  # control: staff see it
    assert run_match(rotation.pk) == "finished"  # the last game of the group is done
    for viewer in (None, stranger()):
        assert shown(viewer)[0] == 200, (surface, viewer)  # control: all open


def test_a_replay_kept_parsed_is_still_withheld_once_its_seed_group_reopens(
    played: Match, three_authors_bots: list[BotVersion]
) -> None:
    """The viewer keeps finished replays parsed per process; the reader's right is still
    asked on every request (a game of its seed group queued later closes it again)."""
    shown = play_surfaces(played)["replay page"]
    assert shown(None)[0] == 200  # parsed and kept by this process
    assert replay_pages._PARSED  # control: the copy is there
    create_match(three_authors_bots[::-1], limits=FAST, seed=played.seed)
    for viewer in (None, stranger()):
        assert shown(viewer)[0] == 404, viewer
    staff = User.objects.create_user("root", password="x-4521-y", is_staff=True)
    assert shown(staff)[0] == 200  # control: staff see it


def test_the_match_page_offers_no_replay_while_its_seed_group_is_open(
    played: Match, three_authors_bots: list[BotVersion]
) -> None:
    link = f'href="/matches/{played.pk}/replay/"'
    assert link in site(None).get(f"/matches/{played.pk}/").content.decode()  # control
    create_match(three_authors_bots[::-1], limits=FAST, seed=played.seed)
    page = site(stranger()).get(f"/matches/{played.pk}/").content.decode()
    assert link not in page and "withheld" in page


def test_a_running_game_of_a_seed_group_is_not_drawn_live(
    played: Match, three_authors_bots: list[BotVersion]
) -> None:
    live = create_match(three_authors_bots[1:] + three_authors_bots[:1], limits=FAST)
    replay = Match.objects.get(pk=played.pk)
    from catan_arena.matches.selectors import replay_of

    data = replay_of(replay)
    assert data is not None
    data["steps"] = data["steps"][:30]
    Match.objects.filter(pk=live.pk).update(status="running", live=data, seed=played.seed)
    Match.objects.filter(pk=played.pk).update(status="queued", replay=None)  # still to play
    board, data_url = 'class="board"', f"/matches/{live.pk}/live/data/?since=0&shell=1"

    def drawn(viewer: Client) -> tuple[str, dict[str, Any]]:
        return viewer.get(f"/matches/{live.pk}/").content.decode(), viewer.get(data_url).json()

    for viewer in (None, stranger()):
        page, sent = drawn(site(viewer))
        assert board not in page and "every game sharing" in page, viewer
        assert sent["withheld"] and "frames" not in sent and "shell" not in sent, viewer
    staff = User.objects.create_user("root", password="x-4521-y", is_staff=True)
    page, sent = drawn(site(staff))  # control: staff see it
    assert board in page and len(sent["frames"]) == 31 and board in sent["shell"]
    Match.objects.filter(pk=played.pk).update(status="finished")  # the group's last game
    page, sent = drawn(site(None))  # open
    assert board in page and len(sent["frames"]) == 31 and board in sent["shell"]
