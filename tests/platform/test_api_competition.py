"""The API's tournaments and A/B tests: organizers alone manage tournaments, authors
enter their own versions, anyone reads standings and fixtures; authors A/B test
their own versions."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.matches.services import run_match
from catan_arena.submissions.models import BotVersion
from tests.support.api import API, client_of, error
from tests.support.records import active_bots

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    cache.clear()


@pytest.fixture
def organizer() -> User:
    return grant_role(User.objects.create_user("olga", password="x-4521-y"), ORGANIZERS)


NEW = {"name": "api cup", "format": "round_robin", "decision_seconds": 0.3,
       "time_bank_seconds": 1, "rules": {"vp_to_win": 8}}  # fmt: skip


def test_only_organizers_create_and_manage_tournaments(organizer: User, author: User) -> None:
    error(APIClient().post(f"{API}/tournaments/", NEW, format="json"), 401)
    error(client_of(author).post(f"{API}/tournaments/", NEW, format="json"), 403)
    made = client_of(organizer).post(f"{API}/tournaments/", NEW, format="json")
    assert made.status_code == 201 and made.json()["status"] == "draft"
    pk = made.json()["id"]
    error(client_of(author).post(f"{API}/tournaments/{pk}/open/"), 403)
    assert client_of(organizer).post(f"{API}/tournaments/{pk}/open/").json()["status"] == "open"
    again = error(client_of(organizer).post(f"{API}/tournaments/{pk}/open/"), 409)
    assert "draft" in again["message"]
    error(client_of(organizer).post(f"{API}/tournaments/999/open/"), 404)


def test_bad_tournament_settings_are_400(organizer: User) -> None:
    client = client_of(organizer)
    body = error(client.post(f"{API}/tournaments/", {**NEW, "table_size": 6}, format="json"), 400)
    assert "3 or 4" in body["fields"]["settings"][0]
    body = error(
        client.post(f"{API}/tournaments/", {**NEW, "format": "knockout"}, format="json"), 400
    )
    assert "format" in body["fields"]
    error(client.post(f"{API}/tournaments/", {**NEW, "starts_at": "soon"}, format="json"), 400)


def test_authors_enter_their_own_versions_and_the_tournament_runs(
    organizer: User, three_authors_bots: list[BotVersion]
) -> None:
    made = client_of(organizer).post(
        f"{API}/tournaments/", {**NEW, "open_entries": True}, format="json"
    )
    pk = made.json()["id"]
    url = f"{API}/tournaments/{pk}/entries/"
    first, second, third = three_authors_bots
    stranger = second.bot.owner
    error(client_of(stranger).post(url, {"version": first.pk}, format="json"), 403)
    for version in three_authors_bots:
        owner = client_of(version.bot.owner)
        assert owner.post(url, {"version": version.pk}, format="json").status_code == 201
    again = error(client_of(first.bot.owner).post(url, {"version": first.pk}, format="json"), 409)
    assert "already entered" in again["message"]
    error(client_of(first.bot.owner).post(url, {"version": 99999}, format="json"), 400)
    gone = client_of(third.bot.owner).delete(f"{url}{third.pk}/")
    assert gone.status_code == 204
    client_of(third.bot.owner).post(url, {"version": third.pk}, format="json")
    assert [e["bot"] for e in APIClient().get(url).json()] == [
        v.bot.name for v in three_authors_bots
    ]
    started = client_of(organizer).post(f"{API}/tournaments/{pk}/start/").json()
    assert started["status"] == "running" and started["games_total"] == 3
    error(client_of(third.bot.owner).delete(f"{url}{third.pk}/"), 409)  # entries closed
    fixtures = APIClient().get(f"{API}/tournaments/{pk}/fixtures/").json()["results"]
    assert len(fixtures) == 3 and all(m["rules"]["vp_to_win"] == 8 for m in fixtures)
    assert run_match(fixtures[0]["id"]) == "finished"
    standings = APIClient().get(f"{API}/tournaments/{pk}/standings/")
    rows = standings.json()
    assert standings["X-Games-Done"] == "1" and len(rows) == 3
    assert sum(r["games"] for r in rows) == 3 and rows[0]["tier"] == 1
    assert rows[0]["strength_low"] <= rows[0]["strength"] <= rows[0]["strength_high"]
    cancelled = client_of(organizer).post(f"{API}/tournaments/{pk}/cancel/").json()
    assert cancelled["status"] == "cancelled" and cancelled["games_done"] == 3
    listed = APIClient().get(f"{API}/tournaments/", {"status": "cancelled"}).json()
    assert [t["id"] for t in listed["results"]] == [pk]


def test_scheduling_needs_a_time(organizer: User) -> None:
    pk = client_of(organizer).post(f"{API}/tournaments/", NEW, format="json").json()["id"]
    url = f"{API}/tournaments/{pk}/schedule/"
    error(client_of(organizer).post(url, {}, format="json"), 400)
    reply = client_of(organizer).post(url, {"starts_at": "2030-01-01T12:00:00Z"}, format="json")
    assert reply.json()["starts_at"].startswith("2030-01-01T12:00:00")


def test_an_author_ab_tests_their_versions(author: User, other_author: User) -> None:
    for i in range(3):
        person = User.objects.create_user(f"opp{i}", password="x-4521-y")
        active_bots(person, 1)
    a, b = active_bots(author, 2)
    body = {"version_a": a.pk, "version_b": b.pk, "max_pairs": 4, "decision_seconds": 0.3}
    error(APIClient().post(f"{API}/ab-tests/", body, format="json"), 401)
    error(client_of(other_author).post(f"{API}/ab-tests/", body, format="json"), 403)
    same = error(
        client_of(author).post(f"{API}/ab-tests/", {**body, "version_b": a.pk}, format="json"),
        400,
    )
    assert "different" in same["fields"]["versions"][0]
    made = client_of(author).post(f"{API}/ab-tests/", body, format="json")
    assert made.status_code == 201 and made.json()["status"] == "running"
    pk = made.json()["id"]
    detail = client_of(author).get(f"{API}/ab-tests/{pk}/").json()
    assert len(detail["pair_set"]) == 2 and "0 pairs" in detail["summary"]
    error(APIClient().get(f"{API}/ab-tests/{pk}/"), 404)  # the author's (docs/API.md)
    error(client_of(other_author).post(f"{API}/ab-tests/{pk}/cancel/"), 404)
    stopped = client_of(author).post(f"{API}/ab-tests/{pk}/cancel/").json()
    assert stopped["status"] == "cancelled"
    error(client_of(author).post(f"{API}/ab-tests/{pk}/cancel/"), 409)
    mine = client_of(author).get(f"{API}/ab-tests/", {"requested_by": "ada"}).json()
    assert [t["id"] for t in mine["results"]] == [pk]
