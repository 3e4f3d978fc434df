"""Every write of the API, taken from its OpenAPI schema (so a new endpoint is covered
the day it appears): refused to anyone not signed in, and refused to a signed-in author
on what belongs to someone else. Nothing changes in the database either way."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from catan_arena.abtests.services import request_ab_test
from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.accounts.tokens import create_token
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.services import TournamentSpec, create_tournament
from tests.support.bots import VALID_BOT
from tests.support.records import active_bots

pytestmark = pytest.mark.django_db
WRITES = ("post", "put", "patch", "delete")
OPEN_TO_ALL = {("post", "/api/v1/auth/token/")}
"""Log-in: answered for anyone (a wrong pair is a 401 like every refusal here)."""


@pytest.fixture
def world(three_authors_bots: list[BotVersion]) -> dict[str, Any]:
    """Objects of ``ada`` (an organizer's tournament, her versions, her token, her A/B
    test, a match) for ``mallory`` to attack."""
    ada = grant_role(three_authors_bots[0].bot.owner, ORGANIZERS)
    extra = User.objects.create_user("ida", password="x-4521-y")
    active_bots(extra, 1)
    second = upload_version(ada, "second-of-ada", "bot.py", VALID_BOT + b"# 2\n").version
    BotVersion.objects.filter(pk=second.pk).update(status="active")
    second.refresh_from_db()
    test = request_ab_test(ada, three_authors_bots[0], second, max_pairs=2)
    cup = create_tournament(ada, TournamentSpec(name="cup"), open_entries=True)
    token, _ = create_token(ada, "hers")
    match = create_match(three_authors_bots, limits=MatchLimits(0.3, 1.0))
    return {"pk": {"tournaments": cup.pk, "ab-tests": test.pk, "versions": second.pk,
                   "tokens": token.pk, "matches": match.pk},
            "name": three_authors_bots[0].bot.name, "version": second.pk}  # fmt: skip


def operations() -> list[tuple[str, str]]:
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    return [(m, p) for p, ops in schema["paths"].items() for m in ops if m in WRITES]


def concrete(path: str, world: dict[str, Any]) -> str:
    collection = re.match(r"/api/v1/(?:me/)?([\w-]+)/", path)
    kind = collection.group(1) if collection else ""

    def fill(found: re.Match[str]) -> str:
        name = found.group(1)
        if name == "name":
            return str(world["name"])
        if name == "version":
            return str(world["version"])
        if name == "seat":
            return "0"
        return str(world["pk"].get(kind, 1))

    return re.sub(r"\{(\w+)\}", fill, path)


def snapshot() -> tuple[Any, ...]:
    return (
        list(Tournament.objects.values_list("pk", "status", "starts_at")),
        list(BotVersion.objects.values_list("pk", "status", "withdrawn_at")),
        list(Match.objects.values_list("pk", "status")),
        User.objects.get(username="ada").api_tokens.count(),
        list(Tournament.objects.get(name="cup").entries.values_list("version_id", flat=True)),
    )


def test_the_schema_lists_the_writes() -> None:
    found = operations()
    assert len(found) >= 14 and ("post", "/api/v1/tournaments/{id}/cancel/") in found


def test_no_write_without_signing_in(world: dict[str, Any]) -> None:
    before = snapshot()
    for method, path in operations():
        url = concrete(path, world)
        response = getattr(APIClient(), method)(url, {}, format="json")
        expected = {400, 401} if (method, path) in OPEN_TO_ALL else {401}
        assert response.status_code in expected, (method, url, response.status_code)
    assert snapshot() == before


def test_no_write_on_what_belongs_to_someone_else(world: dict[str, Any]) -> None:
    mallory = User.objects.create_user("mallory", password="x-4521-y")
    _, key = create_token(mallory, "attack")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    before = snapshot()
    attacks = {  # bodies that would do harm if the guard were missing
        "/api/v1/tournaments/": {"name": "mallory cup"},
        "/api/v1/tournaments/{id}/schedule/": {"starts_at": "2030-01-01T00:00:00Z"},
        "/api/v1/tournaments/{id}/entries/": {"version": world["version"]},
        "/api/v1/ab-tests/": {"version_a": world["version"], "version_b": world["version"]},
    }
    for method, path in operations():
        if (method, path) in OPEN_TO_ALL or path == "/api/v1/me/tokens/":
            continue  # her own: a token of her own is hers to make
        url = concrete(path, world)
        if path.endswith("/versions/"):  # an upload under her bot's name
            upload = SimpleUploadedFile("bot.py", VALID_BOT + b"# mallory\n")
            response = client.post(url, {"file": upload}, format="multipart")
        else:
            response = getattr(client, method)(url, attacks.get(path, {}), format="json")
        assert response.status_code in {400, 403, 404, 409}, (method, url, response.status_code)
    assert snapshot() == before
