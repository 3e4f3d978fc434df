"""Every way in accepts and refuses the same limits (issue 20): a tournament's settings at
and just past each bound are made, or refused, alike by the API, the site's form and the
service; the ladder's admin and an A/B test refuse a clock out of bounds."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from catan_arena.abtests.services import ABTestError, request_ab_test
from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.accounts.tokens import create_token
from catan_arena.core.limits import DECISION_BOUND, TIME_BANK_BOUND, TOURNAMENT_BOUNDS
from catan_arena.ladder.models import LadderSettings
from catan_arena.matches.services import MatchLimits
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.services import TournamentError, TournamentSpec, check_spec

pytestmark = pytest.mark.django_db

CASES: list[tuple[str, float]] = [
    ("decision_seconds", DECISION_BOUND.low),
    ("decision_seconds", DECISION_BOUND.high),
    ("decision_seconds", DECISION_BOUND.low / 2),
    ("decision_seconds", DECISION_BOUND.high + 1),
    ("decision_seconds", 0),
    ("time_bank_seconds", TIME_BANK_BOUND.low),
    ("time_bank_seconds", TIME_BANK_BOUND.high),
    ("time_bank_seconds", TIME_BANK_BOUND.low - 1),
    ("time_bank_seconds", TIME_BANK_BOUND.high + 1),
    ("table_size", 3),
    ("table_size", 5),
] + [
    (name, value)
    for name, bound in TOURNAMENT_BOUNDS.items()
    for value in (bound.low - 1, bound.low, bound.high, bound.high + 1)
]
FORM = {"name": "cup", "format": "round_robin", "table_size": 4, "cycles": 1,
        "games_per_table": 1, "entries_per_author": 1}  # fmt: skip


@pytest.fixture
def organizer(author: User) -> User:
    return grant_role(author, ORGANIZERS)


def by_api(client: Client, key: str, name: str, value: float) -> bool:
    answered = client.post("/api/v1/tournaments/", {**FORM, name: value},
                           content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {key}")  # fmt: skip
    assert answered.status_code in (201, 400), answered.content
    return bool(answered.status_code == 201)


def by_form(client: Client, name: str, value: float) -> bool:
    answered = client.post("/tournaments/new/", {**FORM, name: value})
    assert answered.status_code in (302, 400), answered.status_code
    return bool(answered.status_code == 302)


def by_service(name: str, value: float) -> bool:
    spec: dict[str, Any] = {**FORM, name: value}
    default = MatchLimits.default()
    limits = MatchLimits(
        spec.pop("decision_seconds", default.decision_seconds),
        spec.pop("time_bank_seconds", default.time_bank_seconds),
    )
    try:
        check_spec(TournamentSpec(**spec, limits=limits))
    except TournamentError:
        return False
    return True


def test_the_api_the_form_and_the_service_accept_and_refuse_the_same_tournaments(
    client: Client, organizer: User
) -> None:
    _, key = create_token(organizer, "cli")
    client.force_login(organizer)
    verdicts = {
        (name, value): (by_api(client, key, name, value), by_form(client, name, value),
                        by_service(name, value))
        for name, value in CASES
    }  # fmt: skip
    disagree = {case: v for case, v in verdicts.items() if len(set(v)) != 1}
    assert not disagree, disagree
    accepted = sum(v[0] for v in verdicts.values())
    assert 0 < accepted < len(CASES)  # the bounds both admit and refuse
    assert Tournament.objects.count() == 2 * accepted


def test_a_tournament_left_without_a_clock_gets_the_same_default_everywhere(
    client: Client, organizer: User, settings: Any
) -> None:
    settings.MATCH_DECISION_SECONDS, settings.MATCH_TIME_BANK_SECONDS = 0.7, 3.0
    _, key = create_token(organizer, "cli")
    client.force_login(organizer)
    assert by_api(client, key, "name", "api cup")
    assert by_form(client, "name", "form cup")  # type: ignore[arg-type]
    clocks = set(Tournament.objects.values_list("decision_seconds", "time_bank_seconds"))
    assert clocks == {(0.7, 3.0)}


@pytest.mark.parametrize(
    ("decision", "bank", "table_size", "ok"),
    [(1.0, 10.0, 4, True), (DECISION_BOUND.low / 2, 10.0, 4, False),
     (1.0, TIME_BANK_BOUND.high + 1, 4, False), (1.0, 10.0, 5, False)],
)  # fmt: skip
def test_the_ladder_settings_refuse_what_a_tournament_refuses(
    decision: float, bank: float, table_size: int, ok: bool
) -> None:
    ladder = LadderSettings(decision_seconds=decision, time_bank_seconds=bank,
                            table_size=table_size)  # fmt: skip
    if ok:
        ladder.full_clean()
    else:
        with pytest.raises(ValidationError):
            ladder.full_clean()


def test_an_ab_test_refuses_a_clock_out_of_bounds(
    author: User, three_authors_bots: list[BotVersion]
) -> None:
    a = three_authors_bots[0]
    b = upload_version(author, a.bot.name, "bot.py", b"# B\n").version
    BotVersion.objects.filter(pk=b.pk).update(status=BotVersion.Status.ACTIVE)
    b.refresh_from_db()
    too_fast = MatchLimits(DECISION_BOUND.low / 2, 0.0)
    with pytest.raises(ABTestError, match="seconds per decision"):
        request_ab_test(author, a, b, table_size=3, limits=too_fast)
    fine = MatchLimits(DECISION_BOUND.low, 0.0)
    assert request_ab_test(author, a, b, table_size=3, limits=fine).pk  # the control
