"""The ladder that never idles, on the real database (games played in this process
through ``run_match``): the house bots join a fresh ladder and fill a table among
themselves (not when turned off); an author's own versions never share a table; a
recorded ladder match tops the ladder up on commit; a settled ladder slows to its
background rate and a newly active version wakes it at once."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest

from catan_arena.accounts.models import User
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.selectors import matchmaker_matches, pace
from catan_arena.ladder.services import fill_ladder
from catan_arena.matches.models import Match
from catan_arena.matches.selectors import next_queued_match
from catan_arena.matches.services import run_match
from catan_arena.ratings.models import Rating
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.selectors import author_key
from catan_arena.submissions.services import upload_version, validate_version
from tests.support.bots import VALID_BOT
from tests.support.records import active_bots

pytestmark = pytest.mark.django_db
Commits = Callable[..., AbstractContextManager[list[Callable[[], None]]]]
HOUSE = {"heuristic", "random", "search"}


@pytest.fixture
def house_on(settings: Any) -> None:
    settings.HOUSE_BOTS_ON_LADDER = True


def seated(match: Match) -> list[BotVersion]:
    return [s.version for s in match.seats.select_related("version__bot__owner")]


def test_a_fresh_ladder_tables_the_house_bots(house_on: None) -> None:
    assert not BotVersion.objects.exists()
    made = fill_ladder(random.Random(1))
    assert made, "a fresh ladder made no table"
    for match in made:
        versions = seated(match)
        assert {v.bot.name for v in versions} == HOUSE
        assert all(v.bot.owner.is_system and v.status == "active" for v in versions)
    fill_ladder()  # the second fill finds them registered: nothing new
    assert BotVersion.objects.count() == 3


def test_no_house_bots_when_turned_off(settings: Any) -> None:
    settings.HOUSE_BOTS_ON_LADDER = False
    assert fill_ladder() == []
    assert not BotVersion.objects.exists()


def test_an_authors_versions_never_share_a_table_house_bots_do(
    house_on: None, author: User
) -> None:
    """Three house bots and two bots of one author: every table seats the house bots
    together with at most one of the author's bots."""
    mine = {v.pk for v in active_bots(author, 2)}
    LadderSettings.objects.create(pk=1, tables_in_flight=1)
    with_mine = 0
    for seed in range(12):
        (match,) = fill_ladder(random.Random(seed))
        versions = seated(match)
        assert len({author_key(v) for v in versions}) == len(versions)
        assert len({v.pk for v in versions} & mine) <= 1
        assert {v.bot.name for v in versions} >= HOUSE
        with_mine += len(versions) == 4
        Match.objects.filter(pk=match.pk).update(status=Match.Status.VOID)
    assert with_mine == 12  # four seats: one of the author's bots each time


def test_six_bots_keep_three_tables_in_flight(
    house_on: None, three_authors_bots: list[BotVersion]
) -> None:
    """Two workers need two tables playing and one waiting: with six bots that means a
    version at two tables (never one version twice at a table)."""
    LadderSettings.objects.create(pk=1, tables_in_flight=4)
    made = fill_ladder(random.Random(2))
    assert len(made) == 3
    for match in made:
        versions = seated(match)
        assert len({author_key(v) for v in versions}) == len(versions) == 4


def test_a_recorded_ladder_match_tops_up_on_commit(
    three_authors_bots: list[BotVersion], django_capture_on_commit_callbacks: Commits
) -> None:
    LadderSettings.objects.create(
        pk=1, tables_in_flight=1, decision_seconds=0.3, time_bank_seconds=1.0
    )
    (first,) = fill_ladder(random.Random(1))
    assert fill_ladder() == []  # the one table is in flight
    with django_capture_on_commit_callbacks(execute=True):
        assert run_match(first.pk) == "finished"
    queued = matchmaker_matches().filter(status=Match.Status.QUEUED)
    assert queued.count() == 1, "no top-up when the ladder match was recorded"
    assert queued.get().pk > first.pk


def test_a_failing_top_up_never_breaks_the_recording(
    three_authors_bots: list[BotVersion],
    django_capture_on_commit_callbacks: Commits,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    LadderSettings.objects.create(
        pk=1, tables_in_flight=1, decision_seconds=0.3, time_bank_seconds=1.0
    )
    (first,) = fill_ladder(random.Random(1))

    def broken(*args: object, **kwargs: object) -> list[Match]:
        raise RuntimeError("matchmaker down")

    monkeypatch.setattr("catan_arena.ladder.services.fill_ladder", broken)
    with django_capture_on_commit_callbacks(execute=True):
        assert run_match(first.pk) == "finished"
    first.refresh_from_db()
    assert first.status == "finished" and first.replay_sha256


def settle(versions: list[BotVersion], games: int) -> None:
    for version in versions:
        Rating.objects.create(version=version, elo=1500.0, mu=25.0, sigma=8.0, games=games)


def test_a_settled_ladder_plays_at_the_background_rate(
    three_authors_bots: list[BotVersion],
) -> None:
    fourth = User.objects.create_user("linus", password="not-used-here-4521")
    extra = active_bots(fourth, 1)  # four versions: full speed would start two tables
    LadderSettings.objects.create(
        pk=1, tables_in_flight=4, settled_games=5, background_interval_seconds=3600
    )
    settle([*three_authors_bots, *extra], 4)  # one game short of settled
    ladder = LadderSettings.current()
    assert pace(ladder).mode == "full speed" and pace(ladder).waiting == 4
    Rating.objects.all().update(games=5)
    assert pace(ladder).mode == "background"
    assert len(fill_ladder()) == 1  # none made yet: one is due, not four
    assert fill_ladder() == []  # the next is an hour away
    assert len(fill_ladder(full_speed=True)) >= 1  # what `manage.py ladder --games` asks


def test_a_new_active_version_wakes_a_settled_ladder(
    three_authors_bots: list[BotVersion],
    author: User,
    django_capture_on_commit_callbacks: Commits,
) -> None:
    LadderSettings.objects.create(
        pk=1, tables_in_flight=4, settled_games=5, background_interval_seconds=3600
    )
    settle(three_authors_bots, 50)
    routine = fill_ladder()
    assert len(routine) == 1 and fill_ladder() == []  # settled: one, then wait
    newcomer = upload_version(author, "newcomer", "bot.py", VALID_BOT).version
    with django_capture_on_commit_callbacks(execute=True):
        assert validate_version(newcomer.pk) == "active"
    woken = matchmaker_matches().filter(seats__version=newcomer)
    assert woken.exists(), "the newcomer's activation did not wake the ladder"
    # its placement game is played before the routine one queued earlier
    assert routine[0].priority == Match.Priority.BACKGROUND
    assert {m.priority for m in woken} == {Match.Priority.WAITED_FOR}
    assert next_queued_match() == woken.order_by("id").first().pk
