"""Bad input is a 400, never a 500: the requests that gave a server error (issue 19) and a
property test posting generated values (huge, negative, non-ASCII digits, blank, text) to
every form of the site. Each finding has its control: the same request with a good value
is heard (so the test credits the protection, not a refusal of everything)."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.accounts.tokens import create_token
from catan_arena.core.limits import TOURNAMENT_BOUNDS
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.models import Entry, Tournament
from catan_arena.tournaments.services import (
    TournamentError,
    TournamentSpec,
    create_tournament,
)
from tests.support.records import active_bots

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-4521"
SMALLINT = 32767
"""PostgreSQL's ``smallint`` (the tournament settings' columns) holds up to this."""


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()  # the forms' rate limits start from zero in every test


@pytest.fixture
def organizer(author: User) -> User:
    return grant_role(author, ORGANIZERS)


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


@pytest.fixture
def cup(organizer: User) -> Tournament:
    return create_tournament(organizer, TournamentSpec(name="cup"), open_entries=True)


def messages_of(client: Client, response: Any) -> str:
    assert response.status_code == 302, response.status_code
    return client.get(response["Location"]).content.decode()


# -- the tournament action form: version=² ------------------------------------------------


@pytest.mark.parametrize("version", ["²", "٣x", "99999999999999999999999", "-1", "", "1.5"])
def test_a_malformed_version_on_the_tournament_form_is_its_message(
    signed_in: Client, cup: Tournament, version: str
) -> None:
    answered = signed_in.post(
        f"/tournaments/{cup.pk}/act/", {"action": "enter", "version": version}
    )
    assert "not done: choose a bot" in messages_of(signed_in, answered)
    assert not Entry.objects.exists()


def test_control_a_good_version_is_entered(
    signed_in: Client, cup: Tournament, organizer: User
) -> None:
    (version,) = active_bots(organizer, 1)
    answered = signed_in.post(f"/tournaments/{cup.pk}/act/",
                              {"action": "enter", "version": str(version.pk)})  # fmt: skip
    assert "entered" in messages_of(signed_in, answered)
    assert Entry.objects.filter(tournament=cup, version=version).exists()


# -- the token form: revoke=² --------------------------------------------------------------


@pytest.mark.parametrize("revoke", ["²", "99999999999999999999999", "-3", "", "x"])
def test_a_malformed_token_to_revoke_is_the_form_with_its_message(
    signed_in: Client, organizer: User, revoke: str
) -> None:
    create_token(organizer, "laptop")
    answered = signed_in.post("/account/tokens/", {"revoke": revoke})
    assert answered.status_code == 400
    assert "choose a token to revoke" in answered.content.decode()
    assert organizer.api_tokens.count() == 1


def test_control_a_good_token_is_revoked(signed_in: Client, organizer: User) -> None:
    token, _ = create_token(organizer, "laptop")
    answered = signed_in.post("/account/tokens/", {"revoke": str(token.pk)})
    assert "token revoked" in messages_of(signed_in, answered)
    assert organizer.api_tokens.count() == 0


# -- the API's cursor ----------------------------------------------------------------------


def cursor(query: str) -> str:
    return base64.b64encode(query.encode()).decode()


@pytest.mark.parametrize(
    "raw",
    [cursor("p=abc"), cursor("p=²"), cursor("p=99999999999999999999999"), cursor("p=-1"),
     cursor("o=x"), "not base64!", "é"],
)  # fmt: skip
def test_a_tampered_cursor_is_a_400_with_the_error_shape(client: Client, raw: str) -> None:
    answered = client.get("/api/v1/matches/", {"cursor": raw})
    assert answered.status_code == 400
    error = answered.json()["error"]
    assert error["code"] == "invalid" and "cursor" in error["fields"]


def test_control_the_cursor_of_a_next_link_pages_on(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    for _ in range(3):
        create_match(three_authors_bots, limits=MatchLimits(0.3, 1.0))
    first = client.get("/api/v1/matches/", {"limit": 2}).json()
    assert len(first["results"]) == 2
    second = client.get(first["next"])
    assert second.status_code == 200 and len(second.json()["results"]) == 1
    assert Match.objects.count() == 3


# -- an organizer's tournament settings: each number within its bounds ---------------------


def api_post(client: Client, key: str, body: dict[str, Any]) -> Any:
    return client.post("/api/v1/tournaments/", body, content_type="application/json",
                       HTTP_AUTHORIZATION=f"Token {key}")  # fmt: skip


@pytest.mark.parametrize("name", ["cycles", "rounds", "entries_per_author", "games_per_table",
                                  "max_entries"])  # fmt: skip
@pytest.mark.parametrize("value", [SMALLINT + 1, 2**31, 0, -1])
def test_tournament_numbers_out_of_range_are_a_400_in_the_api(
    client: Client, organizer: User, name: str, value: int
) -> None:
    _, key = create_token(organizer, "cli")
    answered = api_post(client, key, {"name": "big", name: value})
    assert answered.status_code == 400
    assert name in answered.json()["error"]["fields"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("name", ["cycles", "rounds", "entries_per_author", "max_entries"])
def test_tournament_numbers_out_of_range_are_the_form_with_its_message(
    signed_in: Client, name: str
) -> None:
    data = {"name": "big", "format": "round_robin", "table_size": "4", "cycles": "1",
            "games_per_table": "1", "decision_seconds": "1", "entries_per_author": "1"}  # fmt: skip
    answered = signed_in.post("/tournaments/new/", {**data, name: str(2**31)})
    assert answered.status_code == 400
    assert "less than or equal to" in answered.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("name", ["cycles", "rounds", "entries_per_author", "max_entries"])
def test_the_service_refuses_what_the_columns_cannot_hold(organizer: User, name: str) -> None:
    with pytest.raises(TournamentError, match=name.replace("_", " ")):
        create_tournament(organizer, TournamentSpec(name="big", **{name: SMALLINT + 1}))
    assert not Tournament.objects.exists()


def test_control_the_highest_allowed_numbers_make_a_tournament(
    client: Client, organizer: User
) -> None:
    _, key = create_token(organizer, "cli")
    highest = {name: bound.high for name, bound in TOURNAMENT_BOUNDS.items()}
    answered = api_post(client, key, {"name": "most", **highest})
    assert answered.status_code == 201, answered.content
    made = Tournament.objects.get()
    assert (made.cycles, made.entries_per_author) == (highest["cycles"],
                                                       highest["entries_per_author"])  # fmt: skip


# -- every form of the site, generated values ----------------------------------------------

HOSTILE = ["", " ", "²", "٣", "１２", "1e9", "1.5", "-0", "0x10", "NaN", "inf", "\x00",
           str(2**15), str(2**31), str(2**63), str(-(2**63) - 1), "9" * 40]  # fmt: skip
NUMBERISH = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(max_size=12),
)
"""Values a hostile form field gets: huge and negative numbers, non-ASCII digits (which
``str.isdigit`` accepts and ``int`` may not), blanks, NUL, any text."""
EXPLICIT = ("²", "9" * 40, "-1")
"""Posted to every field of every form (the other fields "1"), before the generated ones."""
ACTIONS = st.sampled_from(["enter", "withdraw", "schedule", "open", "start", "cancel", "x"])

FORMS: dict[str, list[str]] = {
    "/sign-up/": ["username", "password1", "password2"],
    "/log-in/": ["username", "password"],
    "/upload/": ["name", "description", "inherit_rating"],
    "/account/tokens/": ["name", "revoke"],
    "/tournaments/new/": ["name", "format", "table_size", "cycles", "rounds", "games_per_table",
                          "decision_seconds", "max_entries", "entries_per_author", "starts_at",
                          "open_entries"],
    "/tournaments/{cup}/act/": ["action", "version", "starts_at"],
    "/bots/{bot}/ab-tests/": ["version_a", "version_b", "pairs", "decision_seconds"],
    "/account/password/": ["old_password", "new_password1", "new_password2"],
    "/account/reset/": ["email"],
    "/admin/login/": ["username", "password"],
}  # fmt: skip
"""Every form of the site and its fields (``grep -rn "request.POST" web/``), with a few
names a hostile client adds; Django's password and admin log-in forms too."""
SIGNED_OUT = ("/sign-up/", "/log-in/", "/account/reset/", "/admin/login/")
"""The forms posted signed out (the rest as an organizer)."""


@pytest.mark.parametrize("url", list(FORMS))
def test_generated_values_posted_to_every_form_never_get_a_server_error(
    organizer: User, cup: Tournament, url: str
) -> None:
    bot = active_bots(organizer, 2)[0].bot
    target = url.format(cup=cup.pk, bot=bot.name)
    fields = FORMS[url]

    @settings(max_examples=20, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(st.fixed_dictionaries({n: ACTIONS if n == "action" else NUMBERISH for n in fields}))
    def post(data: dict[str, str]) -> None:
        cache.clear()  # (the log-in and sign-up limits would answer 429 before the form)
        client = Client(raise_request_exception=False)
        if url not in SIGNED_OUT:
            client.force_login(organizer)
        answered = client.post(target, data)
        assert answered.status_code < 500, (target, data, answered.status_code)

    for name in fields:  # first, each field alone with the values that broke it once
        for value in EXPLICIT:
            plain = {n: "enter" if n == "action" else "1" for n in fields}
            post = example({**plain, name: value})(post)
    post()


# -- ids past the largest key, on the embedded default's SQLite -----------------------------

EMBEDDED_PROBE = """
import json, sys
import django
django.setup()
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

call_command("migrate", verbosity=0)
from catan_arena.accounts.models import User

root = User.objects.create_superuser("root", "root@example.org", "x-4521-y")
BIG = sys.argv[1]


def routes(patterns, prefix=""):
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            yield from routes(p.url_patterns, route)
        elif isinstance(p, URLPattern) and "<" in route:
            yield route


paths = set()
for route in routes(get_resolver().url_patterns):
    if route.startswith("admin/") or "^" in route:
        continue
    for name in ("pk", "version", "seat"):
        for kind in ("id", "int"):
            route = route.replace(f"<{kind}:{name}>", "0" if name == "seat" else BIG)
    if "<" not in route:
        paths.add("/" + route)
paths |= {"/api/v1/matches/", "/api/v1/matches/?version=" + BIG,
          "/api/v1/matches/?tournament=" + BIG, "/api/v1/matches/?ab_test=" + BIG}
anonymous, signed_in = (Client(raise_request_exception=False, HTTP_HOST="localhost")
                        for _ in range(2))
signed_in.force_login(root)
answers = {}
for path in sorted(paths):
    for who, client in (("anonymous", anonymous), ("staff", signed_in)):
        for method in ("get", "post"):
            answers[f"{method.upper()} {path} ({who})"] = getattr(client, method)(path).status_code
print(json.dumps(answers))
"""


@pytest.mark.parametrize("big", [str(2**63), "9" * 25])
def test_ids_past_the_largest_key_are_not_a_server_error_on_sqlite(tmp_path: Any, big: str) -> None:
    """The embedded default (``make serve``) runs on SQLite, which cannot bind an
    integer past 2⁶³ − 1: an id that large in a URL or the API's ``version`` filter
    reached a query through a foreign key and answered 500 (the ratings, fixtures and
    entries of the API, a seat's log page, ``/api/v1/matches/?version=``). Every route
    with an id, GET and POST, anonymous and as staff: never a 5xx, and the ids are
    really there (control: the routes are found)."""
    import json
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CACHE_URL")}
    env |= {"DJANGO_SETTINGS_MODULE": "catan_arena.settings", "CATAN_ARENA_DATA": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", EMBEDDED_PROBE, big], env=env, cwd="platform",
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    answers: dict[str, int] = json.loads(run.stdout.strip().splitlines()[-1])
    # control: every route with an id is asked, and heard (a list answers 200)
    assert len(answers) > 100 and any("/log/0/" in a for a in answers), answers
    assert answers["GET /api/v1/matches/ (anonymous)"] == 200, answers
    failed = {request: status for request, status in answers.items() if status >= 500}
    assert failed == {}
