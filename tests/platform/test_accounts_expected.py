"""Accounts people expect (issue 19, part 7), each with its control: a password change
or reset revokes the user's API tokens and other sessions; look-alike usernames are
refused; withdrawn versions enter nothing; A/B tests are seen by their authors only,
on the site and in the API alike."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from catan_arena.abtests.models import ABTest
from catan_arena.abtests.services import ABTestError, request_ab_test
from catan_arena.accounts.models import ApiToken, User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.accounts.tokens import create_token
from catan_arena.ladder.services import withdraw_version
from catan_arena.tournaments.services import (
    TournamentError,
    TournamentSpec,
    create_tournament,
    enter_tournament,
    open_entries,
)
from tests.support.records import FAST, active_bots

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-4521"
NEW = "another-long-pass-9876"
API = "/api/v1"
WITHOUT_HOOK = [
    v
    for v in __import__("django.conf").conf.settings.AUTH_PASSWORD_VALIDATORS
    if "RevokeTokens" not in v["NAME"]
]


@pytest.fixture
def ada(db: None) -> User:
    return User.objects.create_user("ada", email="ada@example.org", password=PASSWORD)


def api_me(key: str) -> int:
    return APIClient().get(f"{API}/me/", HTTP_AUTHORIZATION=f"Token {key}").status_code


def log_in(client: Client, password: str) -> int:
    return client.post("/log-in/", {"username": "ada", "password": password}).status_code


def change_password(client: Client) -> int:
    data = {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    return client.post("/account/password/", data).status_code


@pytest.mark.parametrize("hooked", [True, False])
def test_a_password_change_revokes_tokens_and_other_sessions(
    hooked: bool, ada: User, settings: Any
) -> None:
    if not hooked:  # the control: without the hook the token outlives the change
        settings.AUTH_PASSWORD_VALIDATORS = WITHOUT_HOOK
    _, key = create_token(ada, "laptop")
    here, elsewhere = Client(), Client()
    assert log_in(here, PASSWORD) == log_in(elsewhere, PASSWORD) == 302
    assert api_me(key) == 200
    assert change_password(here) == 302
    assert here.get("/account/tokens/").status_code == 200  # this session stays
    assert elsewhere.get("/account/tokens/").status_code == 302  # the other one ends
    assert api_me(key) == (401 if hooked else 200)


def test_a_password_reset_by_mail_revokes_tokens(ada: User, settings: Any) -> None:
    _, key = create_token(ada, "laptop")
    client = Client()
    assert client.post("/account/reset/", {"email": "ada@example.org"}).status_code == 302
    assert client.post("/account/reset/", {"email": "nobody@example.org"}).status_code == 302
    assert len(mail.outbox) == 1  # the same answer; one mail, to the account's address
    link = re.search(r"https?://[^/]+(/account/reset/\S+)", mail.outbox[0].body)
    assert link is not None
    form = client.get(link.group(1), follow=True)
    data = {"new_password1": NEW, "new_password2": NEW}
    assert client.post(form.redirect_chain[-1][0], data).status_code == 302
    assert api_me(key) == 401 and not ApiToken.objects.exists()
    assert log_in(Client(), NEW) == 302


def test_the_embedded_default_prints_the_reset_mail(tmp_path: Any) -> None:
    """No EMAIL_URL: Django's console backend (the mail lands in the server's output)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("EMAIL_URL", "DATABASE_URL")}
    env |= {"DJANGO_SETTINGS_MODULE": "catan_arena.settings", "CATAN_ARENA_DATA": str(tmp_path)}
    code = (
        "import django; django.setup(); "
        "from django.conf import settings as s; print(s.EMAIL_BACKEND)"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd="platform",
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert out.stdout.strip() == "django.core.mail.backends.console.EmailBackend"


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("аda", True),  # a Cyrillic а
        ("ADA", True),
        ("ａｄａ", True),  # full width: NFKC makes it ada
        ("adа", True),
        ("ada2", False),  # the control: a name of its own is welcome
    ],
)
def test_look_alike_usernames_are_refused(name: str, refused: bool, ada: User) -> None:
    data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    answer = Client().post("/sign-up/", data)
    assert (answer.status_code == 200) is refused
    assert User.objects.count() == (1 if refused else 2)


def test_usernames_are_stored_nfkc() -> None:
    data = {"username": "ｇｒａｃｅ", "password1": PASSWORD, "password2": PASSWORD}
    assert Client().post("/sign-up/", data).status_code == 302
    assert User.objects.filter(username="grace").exists()


@pytest.fixture
def field(ada: User) -> dict[str, Any]:
    opponents = [active_bots(User.objects.create_user(f"opp{i}"), 1)[0] for i in range(3)]
    a, b = active_bots(ada, 2)
    return {"a": a, "b": b, "opponents": opponents}


@pytest.mark.parametrize("withdrawn", [True, False])
def test_withdrawn_versions_enter_no_ab_test(withdrawn: bool, field: dict[str, Any]) -> None:
    """Neither the author's own withdrawn version nor another author's as an opponent;
    the control (nothing withdrawn) is accepted."""
    victim = field["opponents"][0]
    if withdrawn:
        withdraw_version(victim.bot.owner, victim)
        withdraw_version(field["a"].bot.owner, field["b"])
    ada = field["a"].bot.owner
    attempts = [
        {"version_b": field["b"]},  # one's own withdrawn version
        {"opponents": field["opponents"]},  # another's withdrawn version as opponent
    ]
    for attempt in attempts:
        kwargs: dict[str, Any] = {"version_b": field["b"], "opponents": (), **attempt}
        if "opponents" in attempt:
            kwargs["version_b"] = active_bots(ada, 3)[2] if withdrawn else field["b"]
        try:
            request_ab_test(ada, field["a"], kwargs.pop("version_b"), max_pairs=2,
                            limits=FAST, **kwargs)  # fmt: skip
            made = True
        except ABTestError as exc:
            assert "withdrawn" in str(exc)
            made = False
        assert made is not withdrawn
        ABTest.objects.update(status=ABTest.Status.CANCELLED)


@pytest.mark.parametrize("withdrawn", [True, False])
def test_withdrawn_versions_enter_no_tournament(withdrawn: bool, field: dict[str, Any]) -> None:
    organizer = grant_role(User.objects.create_user("org"), ORGANIZERS)
    cup = open_entries(organizer, create_tournament(organizer, TournamentSpec(name="cup")))
    victim = field["opponents"][0]
    if withdrawn:
        withdraw_version(victim.bot.owner, victim)
    for who in (victim.bot.owner, organizer):  # its author, and an organizer
        try:
            enter_tournament(who, cup, victim)
            entered = True
        except TournamentError as exc:
            assert "withdrawn" in str(exc)
            entered = False
        assert entered is not withdrawn
        cup.entries.all().delete()


def test_ab_tests_are_their_authors_on_the_site_and_in_the_api(field: dict[str, Any]) -> None:
    ada = field["a"].bot.owner
    test = request_ab_test(ada, field["a"], field["b"], max_pairs=2, limits=FAST)
    stranger = User.objects.create_user("mallory", password=PASSWORD)
    staff = User.objects.create_user("root", password=PASSWORD, is_staff=True)

    def seen_in_api(user: User | None) -> bool:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        listed = [t["id"] for t in client.get(f"{API}/ab-tests/").json()["results"]]
        detail = client.get(f"{API}/ab-tests/{test.pk}/").status_code
        assert (test.pk in listed) is (detail == 200)
        return detail == 200

    def seen_on_site(user: User | None) -> bool:
        client = Client()
        if user is not None:
            client.force_login(user)
        page = client.get(f"/bots/{field['b'].bot.name}/").content.decode()
        return "pairs, B" in page

    for who, sees in [(None, False), (stranger, False), (ada, True), (staff, True)]:
        assert seen_in_api(who) is sees, who
        if who is not staff:  # the bot page shows A/B tests to the bot's author
            assert seen_on_site(who) is sees, who


def test_a_match_names_its_ab_test_only_to_those_who_see_the_test(
    field: dict[str, Any],
) -> None:
    """The same rule for the test's games in the API: a stranger (or an opponent's
    author) sees them as plain matches, ``ab_test`` null, and cannot find them by the
    test (400, as for a test that does not exist); the author and staff can. (Before,
    anyone listed a private test's games and results with ``?ab_test=N``.)"""
    ada = field["a"].bot.owner
    test = request_ab_test(ada, field["a"], field["b"], max_pairs=2, limits=FAST)
    opponent = field["opponents"][0].bot.owner
    stranger = User.objects.create_user("mallory", password=PASSWORD)
    staff = User.objects.create_user("root", password=PASSWORD, is_staff=True)

    def answers(user: User | None) -> tuple[set[int | None], int | None, int]:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        listed = client.get(f"{API}/matches/").json()["results"]
        named = {m["ab_test"] for m in listed}
        detail = client.get(f"{API}/matches/{listed[0]['id']}/").json()["ab_test"]
        return named, detail, client.get(f"{API}/matches/", {"ab_test": test.pk}).status_code

    for who in (None, stranger, opponent):
        assert answers(who) == ({None}, None, 400), who
    for who in (ada, staff):  # the control: whoever sees the test
        assert answers(who) == ({test.pk}, test.pk, 200), who
