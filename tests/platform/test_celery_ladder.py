"""The ladder that never idles, against real parts: a real ``celery worker`` with beat,
this machine's Redis and PostgreSQL. A fresh database plays ladder games among the
house bots as soon as a worker and beat run; a finished ladder match tops the ladder
up at once, without waiting for beat's tick."""

from __future__ import annotations

from typing import Any

import pytest

from catan_arena.accounts.models import User
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.selectors import matchmaker_matches
from catan_arena.ladder.services import fill_ladder, set_ladder_paused
from catan_arena.submissions.models import BotVersion
from tests.support.celery_worker import CeleryWorker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]
HOUSE = {"heuristic", "random", "search"}


def pause(workers: list[Any]) -> None:
    """Pause the ladder and let the games in flight end (the worker then stops cleanly)."""
    staff = User.objects.create_superuser("root", "r@example.com", "x-4521-y")
    set_ladder_paused(staff, True)
    in_flight = matchmaker_matches().filter(status__in=("queued", "running"))
    wait_for(lambda: not in_flight.exists(), 120, "the games in flight", workers[0])


def test_a_fresh_database_plays_the_house_bots_as_soon_as_a_worker_and_beat_run(
    server_mode: dict[str, str], workers: list[Any]
) -> None:
    assert not BotVersion.objects.exists() and not LadderSettings.objects.exists()
    env = server_mode | {
        "CATAN_ARENA_HOUSE_BOTS_ON_LADDER": "true",
        "CATAN_ARENA_LADDER_TICK_SECONDS": "1",
    }
    workers.append(CeleryWorker(env, concurrency=2, beat=True))
    finished = matchmaker_matches().filter(status="finished")
    wait_for(lambda: finished.count() >= 3, 180, "three ladder games", workers[0])
    pause(workers)
    for match in finished:
        names = {s.version.bot.name for s in match.seats.select_related("version__bot__owner")}
        assert names == HOUSE
    assert set(BotVersion.objects.values_list("bot__name", flat=True)) == HOUSE


def test_a_finished_ladder_match_tops_up_without_waiting_for_the_tick(
    server_mode: dict[str, str], workers: list[Any], three_authors_bots: list[BotVersion]
) -> None:
    """Beat's tick is an hour: after the one fill made here, only the top-ups on finish
    can keep the ladder playing."""
    LadderSettings.objects.create(
        pk=1, tables_in_flight=1, decision_seconds=0.3, time_bank_seconds=1.0
    )
    env = server_mode | {"CATAN_ARENA_LADDER_TICK_SECONDS": "3600"}
    workers.append(CeleryWorker(env, concurrency=1, beat=True))
    assert len(fill_ladder()) == 1
    finished = matchmaker_matches().filter(status="finished")
    wait_for(lambda: finished.count() >= 4, 180, "four ladder games", workers[0])
    pause(workers)
    assert "Sending due task fill-ladder" not in workers[0].output()  # no tick came
