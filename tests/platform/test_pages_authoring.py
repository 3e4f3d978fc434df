"""The pages that change things, through Django's test client on real data: an author
uploads and watches the validation, reads their bot's log, starts an A/B test and makes
API tokens; an organizer creates, fills, schedules, starts and cancels a tournament.
Every write goes through the services the API uses."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catan_arena.abtests.models import ABTest
from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match, run_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version, validate_version
from catan_arena.tournaments.models import Tournament
from tests.support.bots import VALID_BOT
from tests.support.records import FAST, active_bots

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-4521"


def logged_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def upload(client: Client, name: str, data: bytes, filename: str = "bot.py") -> object:
    return client.post(
        "/upload/", {"name": name, "file": SimpleUploadedFile(filename, data)}, follow=True
    )


def test_an_author_uploads_through_the_form_and_the_page_follows_the_validation(
    client: Client, author: User
) -> None:
    assert client.get("/upload/").status_code == 302  # log in first
    logged_in(client, author)
    form = client.get("/upload/?bot=wanderer").content.decode()
    assert 'enctype="multipart/form-data"' in form and 'value="wanderer"' in form
    response = upload(client, "wanderer", VALID_BOT)
    html = response.content.decode()  # type: ignore[attr-defined]
    assert response.redirect_chain[-1][0] == "/bots/wanderer/"  # type: ignore[attr-defined]
    assert "wanderer v1 uploaded: validation queued" in html
    assert 'hx-get="/bots/wanderer/versions/"' in html  # the table polls while validating
    version = BotVersion.objects.get(bot__name="wanderer")
    assert version.status == "pending"
    assert validate_version(version.pk) == "active"
    polled = client.get("/bots/wanderer/versions/").content.decode()
    assert "active" in polled and "hx-get" not in polled  # done: the polling stops
    assert "smoke" in polled  # the validation report


@pytest.mark.parametrize(
    ("filename", "data", "words"),
    [
        ("bot.py", b"", "file is empty"),
        ("bot.exe", b"MZ\x90\x00", "upload a .py file or a .zip package"),
    ],
)
def test_a_bad_upload_is_refused_on_the_form_and_stores_nothing(
    client: Client, author: User, filename: str, data: bytes, words: str
) -> None:
    logged_in(client, author)
    response = client.post(
        "/upload/", {"name": "broken", "file": SimpleUploadedFile(filename, data)}
    )
    assert response.status_code == 400 and words in response.content.decode()
    assert not BotVersion.objects.exists()


def test_another_authors_bot_name_is_refused(
    client: Client, author: User, other_author: User
) -> None:
    active_bots(other_author, 1)
    name = BotVersion.objects.get().bot.name
    logged_in(client, author)
    response = client.post(
        "/upload/", {"name": name, "file": SimpleUploadedFile("b.py", VALID_BOT)}
    )
    assert response.status_code == 400 and "belongs to another author" in response.content.decode()
    assert BotVersion.objects.count() == 1


def test_uploads_are_rate_limited_per_author(
    client: Client, author: User, settings: object
) -> None:
    settings.REST_FRAMEWORK = {  # type: ignore[attr-defined]
        **settings.REST_FRAMEWORK,  # type: ignore[attr-defined]
        "DEFAULT_THROTTLE_RATES": {"upload": "2/hour", "login": "10/minute"},
    }
    logged_in(client, author)
    for i in range(2):
        assert upload(client, "busy", VALID_BOT + f"# {i}".encode()).status_code == 200  # type: ignore[attr-defined]
    refused = client.post(
        "/upload/", {"name": "busy", "file": SimpleUploadedFile("b.py", VALID_BOT)}
    )
    assert refused.status_code == 429 and "too many uploads" in refused.content.decode()
    assert BotVersion.objects.count() == 2


def test_a_seat_log_is_for_its_author_only(
    client: Client, three_authors_bots: list[BotVersion], other_author: User
) -> None:
    match = create_match(three_authors_bots, limits=FAST)
    assert run_match(match.pk) == "finished"
    seat = match.seats.select_related("version__bot__owner").get(seat=0)
    seat.log = "thinking about ore\n"
    seat.save(update_fields=["log"])
    url = f"/matches/{match.pk}/log/0/"
    assert client.get(url).status_code == 403  # anonymous
    assert seat.version.bot.owner != other_author
    assert logged_in(client, other_author).get(url).status_code == 403
    mine = logged_in(client, seat.version.bot.owner).get(url)
    assert mine.status_code == 200 and "thinking about ore" in mine.content.decode()
    assert client.get(f"/matches/{match.pk}/log/3/").status_code == 404
    bot_page = client.get(f"/bots/{seat.version.bot.name}/").content.decode()
    assert f'href="{url}"' in bot_page  # the owner's bot page links it


def test_the_bot_page_shows_head_to_head(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    matches = [create_match(three_authors_bots, limits=FAST) for _ in range(2)]
    assert all(run_match(m.pk) == "finished" for m in matches)
    me = three_authors_bots[0]
    html = client.get(f"/bots/{me.bot.name}/").content.decode()
    section = html[html.index("Head to head") : html.index("Recent matches")]
    for other in three_authors_bots[1:]:
        assert other.bot.name in section
    ahead = sum(
        s.placing < o.placing
        for m in matches
        for s in m.seats.filter(version=me)
        for o in m.seats.exclude(version=me)
    )
    cells = re.findall(r'<td class="num">(\d+)', section)
    assert cells[0] == "2"  # two games together with the first opponent
    assert sum(int(c) for c in cells[1::3]) == ahead


def test_an_owner_starts_an_ab_test_from_the_bot_page(
    client: Client, author: User, three_authors_bots: list[BotVersion]
) -> None:
    fourth = User.objects.create_user("ida", password=PASSWORD)
    active_bots(fourth, 1)
    first = three_authors_bots[0]
    second = upload_version(author, first.bot.name, "bot.py", VALID_BOT + b"# v2\n").version
    BotVersion.objects.filter(pk=second.pk).update(status="active")
    logged_in(client, author)
    page = client.get(f"/bots/{first.bot.name}/").content.decode()
    assert "Start an A/B test" in page
    response = client.post(
        f"/bots/{first.bot.name}/ab-tests/",
        {"version_a": first.pk, "version_b": second.pk},
        follow=True,
    )
    test = ABTest.objects.get()
    assert (test.version_a, test.version_b) == (first, second)
    assert "started" in response.content.decode() and test.matches.count() >= 2
    same = client.post(
        f"/bots/{first.bot.name}/ab-tests/", {"version_a": first.pk, "version_b": first.pk},
        follow=True,
    )  # fmt: skip
    assert "must be different" in same.content.decode() and ABTest.objects.count() == 1
    client.logout()
    assert "Start an A/B test" not in client.get(f"/bots/{first.bot.name}/").content.decode()


def test_api_tokens_page_shows_a_key_once_and_revokes(client: Client, author: User) -> None:
    assert client.get("/account/tokens/").status_code == 302
    logged_in(client, author)
    made = client.post("/account/tokens/", {"name": "laptop"})
    html = made.content.decode()
    key = re.search(r'<code id="new-key">(cat_[\w-]+)</code>', html)
    assert key is not None and made["Cache-Control"] == "no-store"
    assert key.group(1) not in client.get("/account/tokens/").content.decode()  # once only
    api = Client()
    auth = {"HTTP_AUTHORIZATION": f"Token {key.group(1)}"}
    assert api.get("/api/v1/me/", **auth).json()["username"] == author.username
    token = author.api_tokens.get()
    client.post("/account/tokens/", {"revoke": token.pk})
    assert api.get("/api/v1/me/", **auth).status_code == 401
    empty = client.post("/account/tokens/", {"name": "  "})
    assert empty.status_code == 400 and "needs a name" in empty.content.decode()


def test_an_organizer_creates_fills_schedules_starts_and_cancels(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    boss = User.objects.create_user("boss", password=PASSWORD)
    logged_in(client, boss)
    assert client.get("/tournaments/new/").status_code == 403  # not an organizer yet
    boss = grant_role(boss, ORGANIZERS)
    logged_in(client, boss)
    assert "New tournament" in client.get("/tournaments/").content.decode()
    made = client.post(
        "/tournaments/new/",
        {"name": "winter cup", "format": "round_robin", "table_size": 3, "cycles": 1,
         "games_per_table": 1, "decision_seconds": 0.3, "entries_per_author": 1,
         "open_entries": "on"},
    )  # fmt: skip
    cup = Tournament.objects.get(name="winter cup")
    assert made.status_code == 302 and cup.status == "open" and cup.table_size == 3
    act = f"/tournaments/{cup.pk}/act/"
    for version in three_authors_bots:
        client.post(act, {"action": "enter", "version": version.pk})
    assert cup.entries.count() == 3
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Organize" in page and "Schedule" in page
    client.post(act, {"action": "schedule", "starts_at": "2031-05-01T10:00"})
    cup.refresh_from_db()
    assert cup.starts_at is not None and cup.starts_at.year == 2031
    assert 'hx-get="/tournaments/' in client.get(f"/tournaments/{cup.pk}/").content.decode()
    client.post(act, {"action": "start"})
    cup.refresh_from_db()
    queued = cup.matches.count()
    assert cup.status == "running" and queued >= 1
    cancelled = client.post(act, {"action": "cancel"}, follow=True)
    cup.refresh_from_db()
    assert cup.status == "cancelled"
    assert f"{queued} queued games voided" in cancelled.content.decode()
    assert set(Match.objects.filter(tournament=cup).values_list("status", flat=True)) == {"void"}


def test_an_author_enters_their_own_bot_but_cannot_organize(
    client: Client, author: User, three_authors_bots: list[BotVersion]
) -> None:
    boss = grant_role(User.objects.create_user("boss", password=PASSWORD), ORGANIZERS)
    logged_in(client, boss)
    client.post("/tournaments/new/", {"name": "open cup", "format": "round_robin",
                "table_size": 4, "cycles": 1, "games_per_table": 1, "decision_seconds": 1,
                "entries_per_author": 1, "open_entries": "on"})  # fmt: skip
    cup = Tournament.objects.get()
    logged_in(client, author)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    mine = three_authors_bots[0]
    assert f'<option value="{mine.pk}">' in page and "Organize" not in page
    assert f'<option value="{three_authors_bots[1].pk}">' not in page  # not theirs
    act = f"/tournaments/{cup.pk}/act/"
    client.post(act, {"action": "enter", "version": mine.pk})
    refused = client.post(
        act, {"action": "enter", "version": three_authors_bots[1].pk}, follow=True
    )
    assert "only its author" in refused.content.decode()
    denied = client.post(act, {"action": "start"}, follow=True)
    assert "not done" in denied.content.decode()
    cup.refresh_from_db()
    assert cup.status == "open" and list(cup.entries.values_list("version", flat=True)) == [mine.pk]
    assert client.post("/tournaments/new/", {"name": "mine"}).status_code == 403


@pytest.mark.parametrize("kind", ["bot", "match", "tournament"])
def test_detail_page_queries_do_not_grow_with_the_data(
    client: Client, three_authors_bots: list[BotVersion], kind: str
) -> None:
    from catan_arena.tournaments.services import create_round_robin

    cup = create_round_robin("cup", three_authors_bots, limits=FAST, ladder=True)
    first = cup.matches.order_by("id").first()
    assert first is not None and run_match(first.pk) == "finished"
    url = {
        "bot": f"/bots/{three_authors_bots[0].bot.name}/",
        "match": f"/matches/{first.pk}/",
        "tournament": f"/tournaments/{cup.pk}/",
    }[kind]
    logged_in(client, three_authors_bots[0].bot.owner)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    few = queries()
    for match in cup.matches.exclude(pk=first.pk):
        assert run_match(match.pk) == "finished"
    for _ in range(3):
        assert run_match(create_match(three_authors_bots, limits=FAST).pk) == "finished"
    assert queries() == few
