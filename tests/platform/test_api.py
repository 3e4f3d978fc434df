"""The REST API under /api/v1/: successes, denials (anonymous, another author),
malformed input, one error shape, pagination, filters, bounded queries, the schema."""

from __future__ import annotations

import gzip
import io
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from catan_arena.accounts.models import User
from catan_arena.accounts.tokens import create_token
from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match, run_match
from catan_arena.submissions.models import BotVersion
from tests.support.api import API, client_of, error
from tests.support.bots import VALID_BOT
from tests.support.records import FAST, active_bots

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    cache.clear()


def upload(client: APIClient, name: str, data: bytes, filename: str = "bot.py") -> Any:
    return client.post(
        f"{API}/bots/{name}/versions/", {"file": _named(data, filename)}, format="multipart"
    )


def _named(data: bytes, filename: str) -> io.BytesIO:
    handle = io.BytesIO(data)
    handle.name = filename
    return handle


# Accounts and tokens -----------------------------------------------------------------


def test_a_password_buys_a_token_that_signs_in(author: User) -> None:
    author.set_password("correct-horse-42")
    author.save()
    anonymous = APIClient()
    reply = anonymous.post(
        f"{API}/auth/token/", {"username": "ada", "password": "correct-horse-42", "name": "ci"}
    )
    assert reply.status_code == 201
    key = reply.json()["key"]
    assert key.startswith("cat_") and reply.json()["prefix"] == key[:10]
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert anonymous.get(f"{API}/me/").json()["username"] == "ada"
    listed = anonymous.get(f"{API}/me/tokens/").json()
    assert [t["name"] for t in listed] == ["ci"] and "key" not in listed[0]


def test_login_never_says_which_usernames_exist(author: User) -> None:
    author.set_password("correct-horse-42")
    author.save()
    client = APIClient()
    wrong = client.post(f"{API}/auth/token/", {"username": "ada", "password": "nope"})
    nobody = client.post(f"{API}/auth/token/", {"username": "nobody", "password": "nope"})
    assert error(wrong, 401) == error(nobody, 401)


def test_login_is_throttled(author: User, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 4  # the log-in limit of every door: test_login_limit.py
    client = APIClient()
    for _ in range(3):
        error(client.post(f"{API}/auth/token/", {"username": "ada", "password": "x"}), 401)
    body = error(client.post(f"{API}/auth/token/", {"username": "ada", "password": "x"}), 429)
    assert body["retry_after_seconds"] > 0


def test_a_signed_in_user_makes_named_tokens_within_a_cap(author: User) -> None:
    from catan_arena.accounts.tokens import MAX_TOKENS

    client = client_of(author)  # its first token
    made = client.post(f"{API}/me/tokens/", {"name": "ci"}, format="json")
    assert made.status_code == 201 and made.json()["key"].startswith("cat_")
    assert (
        "name"
        in error(client.post(f"{API}/me/tokens/", {"name": ""}, format="json"), 400)["fields"]
    )
    for i in range(MAX_TOKENS - 2):
        client.post(f"{API}/me/tokens/", {"name": f"t{i}"}, format="json")
    full = error(client.post(f"{API}/me/tokens/", {"name": "one more"}, format="json"), 400)
    assert "at most" in full["fields"]["name"][0]
    error(APIClient().post(f"{API}/me/tokens/", {"name": "x"}, format="json"), 401)


def test_tokens_are_revoked_by_their_owner_only(author: User, other_author: User) -> None:
    token, key = create_token(author, "laptop")
    error(client_of(other_author).delete(f"{API}/me/tokens/{token.pk}/"), 404)
    assert client_of(author).delete(f"{API}/me/tokens/{token.pk}/").status_code == 204
    stale = APIClient()
    stale.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert "revoked" in error(stale.get(f"{API}/me/"), 401)["message"]


def test_anonymous_and_malformed_credentials() -> None:
    error(APIClient().get(f"{API}/me/"), 401)
    odd = APIClient()
    odd.credentials(HTTP_AUTHORIZATION="Token two words")
    error(odd.get(f"{API}/bots/"), 401)
    error(APIClient().get(f"{API}/no/such/thing/"), 404)


# Bots and versions -------------------------------------------------------------------


def test_an_author_uploads_and_reads_back_a_version(author: User) -> None:
    client = client_of(author)
    first = upload(client, "wanderer", VALID_BOT)
    assert first.status_code == 201
    version = first.json()["version"]
    assert version["status"] == "pending" and version["owner"] == "ada"
    again = upload(client, "wanderer", VALID_BOT)
    assert again.status_code == 200 and not again.json()["created"]
    assert "nothing changed" in again.json()["message"]
    detail = APIClient().get(f"{API}/versions/{version['id']}/").json()
    assert detail["sha256"] == version["sha256"] and detail["bot"] == "wanderer"
    assert APIClient().get(f"{API}/bots/wanderer/").json()["owner"] == "ada"


def test_upload_denials_and_bad_files(author: User, other_author: User) -> None:
    error(upload(APIClient(), "wanderer", VALID_BOT), 401)
    client = client_of(author)
    assert upload(client, "wanderer", VALID_BOT).status_code == 201
    taken = error(upload(client_of(other_author), "wanderer", VALID_BOT + b"#2\n"), 409)
    assert "another author" in taken["message"]
    missing = error(client.post(f"{API}/bots/x/versions/", {}, format="multipart"), 400)
    assert "file" in missing["fields"]
    binary = error(upload(client, "junk", b"\x00\xff" * 10), 400)
    assert "UTF-8" in binary["fields"]["file"][0]
    error(upload(client, "exe", b"MZ", filename="bot.exe"), 400)
    error(upload(client, "Bad_Name", VALID_BOT), 400)


def test_an_oversized_upload_is_413(author: User, settings: Any) -> None:
    settings.UPLOAD_MAX_BYTES = 1000
    body = error(upload(client_of(author), "big", b"#" * 2000 + b"\n"), 413)
    assert "1,000" in body["message"]
    assert not BotVersion.objects.exists()


def test_upload_is_throttled(author: User, settings: Any) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "upload": "2/hour"},
    }
    client = client_of(author)
    for i in range(2):
        assert upload(client, f"b{i}", VALID_BOT + f"#{i}\n".encode()).status_code == 201
    error(upload(client, "b3", VALID_BOT + b"#3\n"), 429)


def test_lists_filter_and_page(author: User, other_author: User) -> None:
    active_bots(author, 3)
    active_bots(other_author, 2)
    client = APIClient()
    assert len(client.get(f"{API}/bots/", {"owner": "ada"}).json()["results"]) == 3
    page = client.get(f"{API}/versions/", {"limit": 2, "offset": 1}).json()
    assert page["count"] == 5 and len(page["results"]) == 2 and page["next"] and page["previous"]
    mine = client.get(f"{API}/versions/", {"owner": "grace", "status": "active"}).json()
    assert {v["owner"] for v in mine["results"]} == {"grace"} and mine["count"] == 2
    error(client.get(f"{API}/versions/", {"status": "sleeping"}), 400)


def test_only_the_author_withdraws_a_version(author: User, other_author: User) -> None:
    version = active_bots(author, 1)[0]
    url = f"{API}/versions/{version.pk}/withdrawal/"
    error(APIClient().post(url), 401)
    error(client_of(other_author).post(url), 403)
    reply = client_of(author).post(url)
    assert reply.status_code == 200 and reply.json()["on_ladder"] is False
    assert client_of(author).delete(url).json()["on_ladder"] is True
    error(client_of(author).post(f"{API}/versions/999999/withdrawal/"), 404)


# Matches, replays, logs, the ladder ---------------------------------------------------


@pytest.fixture
def finished_match(three_authors_bots: list[BotVersion]) -> Match:
    match = create_match(three_authors_bots, limits=FAST, ladder=True)
    assert run_match(match.pk) == "finished"
    match.refresh_from_db()
    return match


def test_a_finished_match_its_replay_and_etag(finished_match: Match) -> None:
    client = APIClient()
    detail = client.get(f"{API}/matches/{finished_match.pk}/").json()
    assert detail["status"] == "finished" and detail["seed"] == finished_match.seed
    assert [s["seat"] for s in detail["seats"]] == [0, 1, 2]
    plain = client.get(f"{API}/matches/{finished_match.pk}/replay/")
    assert plain.status_code == 200 and plain["ETag"] == f'"{finished_match.replay_sha256}"'
    assert plain.json()["seed"] == finished_match.seed
    zipped = client.get(f"{API}/matches/{finished_match.pk}/replay/", HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == plain.content
    again = client.get(
        f"{API}/matches/{finished_match.pk}/replay/", HTTP_IF_NONE_MATCH=plain["ETag"]
    )
    assert again.status_code == 304 and not again.content


def test_an_unfinished_match_hides_its_seed_and_has_no_replay(
    three_authors_bots: list[BotVersion],
) -> None:
    queued = create_match(three_authors_bots, limits=FAST)
    detail = APIClient().get(f"{API}/matches/{queued.pk}/").json()
    assert (
        detail["seed"] is None
        and "seed" not in APIClient().get(f"{API}/matches/").json()["results"][0]
    )
    assert (
        "no replay" in error(APIClient().get(f"{API}/matches/{queued.pk}/replay/"), 404)["message"]
    )


def test_a_replay_sharing_its_seed_with_a_game_to_come_hides_the_seed(
    finished_match: Match, three_authors_bots: list[BotVersion]
) -> None:
    create_match(three_authors_bots[::-1], limits=FAST, seed=finished_match.seed)
    error(APIClient().get(f"{API}/matches/{finished_match.pk}/replay/"), 404)  # withheld
    staff = User.objects.create_user("root", password="x-4521-y", is_staff=True)
    replay = client_of(staff).get(f"{API}/matches/{finished_match.pk}/replay/")
    assert replay.json()["seed"] is None and replay["Cache-Control"] == "private, no-store"
    assert replay["ETag"] != f'"{finished_match.replay_sha256}"'
    assert APIClient().get(f"{API}/matches/{finished_match.pk}/").json()["seed"] is None


def test_a_seat_log_is_for_its_author_only(finished_match: Match) -> None:
    seat = finished_match.seats.select_related("version__bot__owner").get(seat=1)
    owner = seat.version.bot.owner
    url = f"{API}/matches/{finished_match.pk}/seats/1/log/"
    error(APIClient().get(url), 401)
    stranger = User.objects.create_user("mallory", password="x-4521-y")
    error(client_of(stranger).get(url), 403)
    mine = client_of(owner).get(url)
    assert mine.status_code == 200 and mine.json()["version"] == seat.version_id
    error(client_of(owner).get(f"{API}/matches/{finished_match.pk}/seats/7/log/"), 404)


def test_match_filters_and_cursor(finished_match: Match, three_authors_bots: list[Any]) -> None:
    for _ in range(3):
        create_match(three_authors_bots, limits=FAST)
    client = APIClient()
    bot = three_authors_bots[0].bot.name
    assert len(client.get(f"{API}/matches/", {"bot": bot}).json()["results"]) == 4
    done = client.get(f"{API}/matches/", {"status": "finished"}).json()["results"]
    assert [m["id"] for m in done] == [finished_match.pk]
    first = client.get(f"{API}/matches/", {"limit": 3}).json()
    assert len(first["results"]) == 3 and first["next"]
    rest = client.get(first["next"]).json()
    ids = [m["id"] for m in first["results"] + rest["results"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 4
    error(client.get(f"{API}/matches/", {"created_after": "yesterday"}), 400)


def test_the_ladder_and_a_rating_history(finished_match: Match) -> None:
    ladder = APIClient().get(f"{API}/ladder/").json()["results"]
    assert len(ladder) == 3 and all(r["provisional"] for r in ladder)
    assert [r["elo"] for r in ladder] == sorted((r["elo"] for r in ladder), reverse=True)
    version = ladder[0]["version"]
    changes = APIClient().get(f"{API}/versions/{version}/ratings/").json()["results"]
    assert [c["match"] for c in changes] == [finished_match.pk]


# Bounded queries, the schema ---------------------------------------------------------

LISTS = ["/bots/", "/versions/", "/matches/", "/ladder/", "/tournaments/", "/ab-tests/"]


@pytest.mark.parametrize("endpoint", LISTS)
def test_list_queries_do_not_grow_with_the_rows(
    endpoint: str, three_authors_bots: list[BotVersion]
) -> None:
    from catan_arena.abtests.models import ABTest
    from catan_arena.ratings.models import Rating
    from catan_arena.tournaments.services import create_round_robin

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert APIClient().get(f"{API}{endpoint}").status_code == 200
        return len(captured)

    def grow(n: int) -> None:
        people = [User.objects.create_user(f"q{n}-{i}", password="x-4521-y") for i in range(3)]
        versions = [active_bots(p, 1)[0] for p in people]
        for v in versions:
            Rating.objects.create(version=v, elo=1500, mu=25, sigma=8)
        for k in range(n):
            create_match(versions, limits=FAST)
            ABTest.objects.create(
                version_a=versions[0], version_b=versions[1], requested_by=people[0],
                margin=0.3, decision_seconds=0.3,
            )  # fmt: skip
            if k % 4 == 0:
                create_round_robin(f"cup {n}-{k}", versions, limits=FAST)

    grow(2)
    few = queries()
    grow(20)
    assert queries() == few


def test_the_schema_is_valid_and_lists_every_endpoint() -> None:
    import yaml
    from openapi_spec_validator import validate

    from catan_arena.api.urls import urlpatterns

    reply = APIClient().get(f"{API}/schema/")
    assert reply.status_code == 200
    schema = yaml.safe_load(reply.content)
    validate(schema)
    documented = {re.sub(r"\{\w+\}", "{}", path) for path in schema["paths"]}
    routes = {
        "/api/v1/" + re.sub(r"<\w+:\w+>", "{}", str(p.pattern))
        for p in urlpatterns
        if p.name not in ("schema", "docs", None)
    }
    assert routes == documented
    assert APIClient().get(f"{API}/docs/").status_code == 200


def test_a_server_error_under_the_api_is_json_too(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    from catan_arena.api import bots

    def broken(self: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(bots.BotListView, "get_queryset", broken)
    client = APIClient(raise_request_exception=False)
    error(client.get(f"{API}/bots/"), 500)
    assert "<html" in client.get("/admin/login/?x=1").content.decode().lower()  # not the API
