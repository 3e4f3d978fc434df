"""Facts the pages, the API and the services each rely on, checked to agree (issue 20):
which tournament takes entries, who may organize, which version plays (on the ladder),
who sees a replay and its seed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS, may_organize
from catan_arena.accounts.services import grant_role
from catan_arena.ladder.selectors import candidates, is_on_ladder, ladder_versions
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match, run_match
from catan_arena.submissions.models import Bot, BotVersion
from catan_arena.submissions.selectors import playing_version
from catan_arena.submissions.services import upload_version
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


def version_of(owner: User, bot: str, status: str, *, withdrawn: bool = False) -> BotVersion:
    number = BotVersion.objects.filter(bot__name=bot).count() + 1
    made = upload_version(owner, bot, "bot.py", f"# {bot} v{number}\n".encode())
    BotVersion.objects.filter(pk=made.version.pk).update(
        status=status, withdrawn_at=timezone.now() if withdrawn else None
    )
    made.version.refresh_from_db()
    return made.version


def test_on_ladder_the_version_that_plays_and_the_matchmaker_agree(
    client: Client, author: User
) -> None:
    active, rejected = BotVersion.Status.ACTIVE, BotVersion.Status.REJECTED
    version_of(author, "newer", active)
    newer = version_of(author, "newer", active)  # the newest active plays
    version_of(author, "off", active)
    version_of(author, "off", active, withdrawn=True)  # withdrawn: the bot is off
    older = version_of(author, "older", active)
    version_of(author, "older", rejected)  # a rejected newer one changes nothing
    version_of(author, "back", active, withdrawn=True)
    back = version_of(author, "back", active)
    expected = {newer.pk, older.pk, back.pk}

    assert {v.pk for v in ladder_versions()} == expected
    assert {c.version for c in candidates()} == expected  # the matchmaker's field
    listed = client.get("/api/v1/versions/", {"page_size": 100}).json()["results"]
    assert len(listed) == 8
    assert {v["id"] for v in listed if v["on_ladder"]} == expected
    for version in BotVersion.objects.all():
        one = client.get(f"/api/v1/versions/{version.pk}/").json()
        assert one["on_ladder"] is is_on_ladder(version) is (version.pk in expected)
    bots = client.get("/api/v1/bots/").json()["results"]
    assert {b["name"]: b["playing_version"] for b in bots} == {
        "newer": newer.pk, "off": None, "older": older.pk, "back": back.pk}  # fmt: skip
    for name, plays in (("newer", newer), ("off", None), ("older", older), ("back", back)):
        bot = Bot.objects.get(name=name)
        assert playing_version(bot) == plays
        assert client.get(f"/bots/{name}/").context["playing"] == plays


READS = ("/api/v1/matches/{pk}/replay/", "/matches/{pk}/replay/",
         "/matches/{pk}/replay/position/?step=3")  # fmt: skip
"""Every way to a replay: the API, the viewer, the position download."""


def test_the_api_the_viewer_and_the_download_withhold_a_replay_and_its_seed_alike(
    client: Client, three_authors_bots: list[BotVersion], author: User
) -> None:
    played = create_match(three_authors_bots, limits=MatchLimits(0.3, 1.0))
    assert run_match(played.pk) == "finished"
    played.refresh_from_db()
    twin = Match.objects.create(seed=played.seed, rules=played.rules, decision_seconds=1,
                                game_seconds=10)  # fmt: skip
    for url in READS:  # a game sharing its seed is to play: no one sees anything
        assert client.get(url.format(pk=played.pk)).status_code == 404, url
    User.objects.filter(pk=author.pk).update(is_staff=True)
    client.force_login(author)  # staff watch, the seed still withheld
    assert all(client.get(url.format(pk=played.pk)).status_code == 200 for url in READS)
    seeds = {client.get(url.format(pk=played.pk)).json()["seed"] for url in READS[::2]}
    assert seeds == {None}
    client.logout()
    Match.objects.filter(pk=twin.pk).update(status=Match.Status.VOID)
    assert all(client.get(url.format(pk=played.pk)).status_code == 200 for url in READS)
    seeds = {client.get(url.format(pk=played.pk)).json()["seed"] for url in READS[::2]}
    assert seeds == {played.seed}  # the group is over: the seed is public everywhere
