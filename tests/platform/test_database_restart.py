"""PostgreSQL restarted while a real ``celery worker`` plays a ladder: every match
finishes exactly once, each moved every seat's rating once, and the ratings equal the
recompute (compared once the ladder is paused and the matches its tick added are played
and rated). Serial: the run's one PostgreSQL (the suite's own, never the machine's) is
restarted, so nothing else may be running beside it (``make pytest`` runs the serial
tests alone, after the others)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection

from catan_arena.ladder.models import LadderSettings
from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match
from catan_arena.ratings.models import Rating, RatingChange
from catan_arena.submissions.models import BotVersion
from tests.support.celery_worker import CeleryWorker, ratings_caught_up, wait_for
from tests.support.records import FAST
from tests.support.services import suite_services

pytestmark = [pytest.mark.serial, pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def when_reachable(query: Any, seconds: float = 60) -> Any:
    """``query()`` once the database answers again."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return query()
        except OperationalError:
            connection.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_a_postgres_restart_loses_and_doubles_nothing(
    three_authors_bots: list[BotVersion], server_mode: dict[str, str], workers: list[Any]
) -> None:
    ticks = {"CATAN_ARENA_REAPER_SECONDS": "1", "CATAN_ARENA_REDISPATCH_SECONDS": "5"}
    workers.append(CeleryWorker(server_mode | ticks, concurrency=2, beat=True))
    ids = [create_match(three_authors_bots, limits=FAST, ladder=True).pk for _ in range(8)]
    mine = Match.objects.filter(pk__in=ids)
    deadline = time.monotonic() + 60
    while not mine.filter(status="running").exists():
        assert time.monotonic() < deadline, workers[0].output()[-3000:]
        time.sleep(0.1)
    suite_services().restart_postgres()  # matches are being played, recorded and queued right now
    connection.close()
    deadline = time.monotonic() + 300
    while when_reachable(lambda: mine.exclude(status="finished").count()):
        assert time.monotonic() < deadline, workers[0].output()[-6000:]
        time.sleep(0.5)
    LadderSettings.objects.update_or_create(pk=LadderSettings.ROW, defaults={"paused": True})
    in_flight = Match.objects.filter(status__in=("queued", "running"))
    wait_for(lambda: not in_flight.exists(), 120, "the ladder's matches in flight", workers[0])
    wait_for(ratings_caught_up, 60, "the matches rated", workers[0])
    for match in mine:
        outcomes = [a["outcome"] for a in match.attempt_log]
        assert outcomes.count("finished") == 1, outcomes
        assert RatingChange.objects.filter(match=match).count() == 3
    before = sorted(Rating.objects.values_list("version_id", "elo", "mu", "sigma", "games"))
    call_command("recompute_ratings", verbosity=0)
    after = sorted(Rating.objects.values_list("version_id", "elo", "mu", "sigma", "games"))
    assert before == after
