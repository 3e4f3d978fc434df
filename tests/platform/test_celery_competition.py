"""Competition against real parts: a real ``celery worker`` with beat, this machine's
Redis and PostgreSQL. A scheduled duplicate tournament starts on time and finishes; the
ladder fills its tables by itself; an A/B test reaches its verdicts."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from catan_arena.abtests.models import ABTest
from catan_arena.abtests.services import request_ab_test
from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.services import set_ladder_paused
from catan_arena.matches.models import Match
from catan_arena.matches.selectors import replay_of
from catan_arena.ratings.models import Rating
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins, upload_version
from catan_arena.tournaments.selectors import progress, standings, strengths
from catan_arena.tournaments.services import (
    TournamentSpec,
    create_tournament,
    enter_tournament,
)
from tests.support.bots import VALID_BOT
from tests.support.celery_worker import CeleryWorker, ratings_caught_up, wait_for
from tests.support.records import FAST, active_bots, assert_one_board_and_dice

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]
TICKS = {"CATAN_ARENA_TOURNAMENT_TICK_SECONDS": "1", "CATAN_ARENA_LADDER_TICK_SECONDS": "1"}

FRESH_BOT = VALID_BOT.replace(
    b"from bots import Player\n",
    b"import os, sys\nfrom bots import Player\n"
    b"print('process-token', os.urandom(8).hex(), file=sys.stderr, flush=True)\n",
)
"""Prints a token of its own at import: a bot process reused for a second game would
leave that game's log without one."""


def make_organizer() -> User:
    user = User.objects.create_user("olga", password="not-used-here-4521")
    return grant_role(user, ORGANIZERS)


def people(n: int) -> list[User]:
    return [User.objects.create_user(f"author{i}", password="x-4521-y") for i in range(n)]


def active(owner: User, name: str, source: bytes) -> BotVersion:
    version = upload_version(owner, name, "bot.py", source).version
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
    version.refresh_from_db()
    return version


def test_a_scheduled_duplicate_tournament_starts_on_time_and_finishes(
    server_mode: dict[str, str], workers: list[Any]
) -> None:
    LadderSettings.objects.create(pk=1, paused=True)  # this test is about the tournament
    organizer = make_organizer()
    authors = people(3)
    starts_at = timezone.now() + timedelta(seconds=6)
    spec = TournamentSpec("beat cup", format="duplicate", limits=FAST, starts_at=starts_at)
    tournament = create_tournament(organizer, spec, open_entries=True)
    for i, author in enumerate(authors):
        bot = active(author, f"fresh-{i}", FRESH_BOT + f"# {i}\n".encode())
        enter_tournament(author, tournament, bot)
    workers.append(CeleryWorker(server_mode | TICKS, concurrency=2, beat=True))
    tournament.refresh_from_db()
    assert tournament.status == "open"  # not before its time

    def finished() -> bool:
        tournament.refresh_from_db()
        return tournament.status == "finished"

    wait_for(finished, 180, "the tournament to start and finish", workers[0])
    assert tournament.started_at is not None
    late = (tournament.started_at - starts_at).total_seconds()
    assert 0 <= late < 5, late  # beat ticks every second
    matches = list(tournament.matches.order_by("id"))
    done = progress(tournament)
    assert len(matches) == 3 and (done.total, done.finished) == (3, 3)
    assert len({m.seed for m in matches}) == 1
    assert_one_board_and_dice([replay_of(m) for m in matches])
    for match in matches:  # every bot of every game printed a token of its own process
        logs = [seat.log for seat in match.seats.all()]
        assert all(len(re.findall(r"process-token [0-9a-f]{16}", log)) == 1 for log in logs)
    tokens = [
        re.search(r"process-token ([0-9a-f]{16})", seat.log).group(1)  # type: ignore[union-attr]
        for match in matches
        for seat in match.seats.all()
    ]
    assert len(set(tokens)) == 9  # 3 games x 3 seats: nine fresh processes
    table = standings(tournament)
    assert sum(row.games for row in table) == 9
    assert set(strengths(tournament)) == {row.version_id for row in table}


def test_the_ladder_fills_its_tables_by_itself(
    server_mode: dict[str, str], workers: list[Any]
) -> None:
    LadderSettings.objects.create(pk=1, tables_in_flight=2, decision_seconds=0.3)
    authors = people(4)
    for author in authors:
        active_bots(author, 2)  # 8 bots of 4 authors
    workers.append(CeleryWorker(server_mode | TICKS, concurrency=2, beat=True))
    ladder_games = Match.objects.filter(ladder=True, tournament__isnull=True)

    def enough() -> bool:
        return ladder_games.filter(status="finished").count() >= 6

    wait_for(enough, 180, "six ladder games", workers[0])
    staff = User.objects.create_superuser("root", "r@example.com", "x-4521-y")
    set_ladder_paused(staff, True)
    for match in ladder_games.filter(status="finished"):
        owners = [s.version.bot.owner_id for s in match.seats.select_related("version__bot")]
        assert len(owners) == len(set(owners)) == 4
    wait_for(ratings_caught_up, 60, "the games rated", workers[0])
    assert Rating.objects.filter(games__gt=0).count() >= 6

    def settled() -> bool:
        return not ladder_games.filter(status__in=("queued", "running")).exists()

    wait_for(settled, 120, "the games in flight", workers[0])
    count = ladder_games.count()
    import time

    time.sleep(3)  # three more ticks while paused
    assert ladder_games.count() == count


def test_an_ab_test_stops_early_on_a_rigged_pair_and_not_on_equals(
    server_mode: dict[str, str], workers: list[Any]
) -> None:
    LadderSettings.objects.create(pk=1, paused=True)
    opponents = [
        active(author, f"opponent-{i}", VALID_BOT + f"# {i}\n".encode())
        for i, author in enumerate(people(3))
    ]
    tester = User.objects.create_user("ab", password="x-4521-y", is_staff=True)
    weak = active(tester, "weak", VALID_BOT + b"# weak\n")
    twin = active(tester, "twin", VALID_BOT + b"# twin\n")
    strong = next(v for v in register_builtins() if v.bot.name == "heuristic")
    rigged = request_ab_test(tester, weak, strong, limits=FAST, max_pairs=40, opponents=opponents)
    equal = request_ab_test(tester, weak, twin, limits=FAST, max_pairs=8, opponents=opponents)
    workers.append(CeleryWorker(server_mode, concurrency=3))

    def decided(test: ABTest) -> bool:
        test.refresh_from_db()
        return test.status == "finished"

    wait_for(lambda: decided(rigged), 300, "the rigged test's verdict", workers[0])
    assert rigged.verdict == "better", (rigged.pairs, rigged.mean, rigged.llr)
    assert rigged.pairs <= 30, (rigged.pairs, rigged.mean)  # of at most 40
    assert rigged.llr >= rigged.upper
    wait_for(lambda: decided(equal), 300, "the equal test to stop", workers[0])
    assert equal.verdict != "better", (equal.pairs, equal.mean, equal.llr)
    assert equal.pairs > rigged.pairs or equal.verdict == "inconclusive"
