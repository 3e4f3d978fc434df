"""Facts the pages, the API and the services each rely on, checked to agree (issue 20):
which tournament takes entries, who may organize."""

from __future__ import annotations

import pytest
from django.test import Client

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS, may_organize
from catan_arena.accounts.services import grant_role
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.services import (
    TournamentError,
    TournamentSpec,
    create_tournament,
    enter_tournament,
    open_entries,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(author: User) -> User:
    return grant_role(author, ORGANIZERS)


def offered(client: Client, tournament: Tournament) -> list[BotVersion]:
    return list(client.get(f"/tournaments/{tournament.pk}/").context["enterable"])


def test_the_page_offers_entries_exactly_when_the_service_takes_them(
    client: Client, organizer: User, three_authors_bots: list[BotVersion]
) -> None:
    client.force_login(organizer)
    version = three_authors_bots[0]
    cup = create_tournament(organizer, TournamentSpec(name="cup"))
    assert cup.status == Tournament.Status.DRAFT
    assert offered(client, cup) == []
    with pytest.raises(TournamentError, match="not open"):
        enter_tournament(organizer, cup, version)
    open_entries(organizer, cup)
    cup.refresh_from_db()
    assert version in offered(client, cup)  # the control: open, it is offered and taken
    enter_tournament(organizer, cup, version)
    assert version not in offered(client, cup)


def test_the_api_the_pages_and_the_service_agree_on_who_organizes(
    client: Client, organizer: User, other_author: User
) -> None:
    for user, expected in ((organizer, True), (other_author, False)):
        assert may_organize(user) is expected
        client.force_login(user)
        assert client.get("/api/v1/me/").json()["is_organizer"] is expected
        assert client.get("/tournaments/").context["organizer"] is expected
        made = client.post("/api/v1/tournaments/", {"name": "cup"},
                           content_type="application/json")  # fmt: skip
        assert (made.status_code == 201) is expected, made.content
        page = client.get("/tournaments/new/")
        assert (page.status_code == 200) is expected
    client.logout()
    assert client.get("/tournaments/").context["organizer"] is False
