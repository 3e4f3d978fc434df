"""Queued matches are played in priority order, then oldest first: a person's game
first, then a match someone waits for (a tournament's, an A/B test's, a newcomer's
first ladder table), before the ladder's routine ones queued earlier — on the embedded
default's workers (the database's order) and on real Celery workers (the Redis
transport's priority lists), each with its control (equal priorities: oldest first)."""

from __future__ import annotations

from typing import Any

import pytest

from catan_arena.accounts.models import User
from catan_arena.matches.models import Match
from catan_arena.matches.person import start_person_game
from catan_arena.matches.selectors import next_queued_match
from catan_arena.matches.services import create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins
from tests.support.celery_worker import CeleryWorker, wait_for
from tests.support.records import FAST


def routine(bots: list[BotVersion], n: int) -> list[Match]:
    return [create_match(bots, limits=FAST, ladder=True) for _ in range(n)]


@pytest.mark.django_db
def test_the_embedded_workers_take_a_waited_for_match_before_older_routine_ones(
    three_authors_bots: list[BotVersion],
) -> None:
    older = routine(three_authors_bots, 2)
    assert {m.priority for m in older} == {Match.Priority.BACKGROUND}
    assert next_queued_match() == older[0].pk  # the control: equals, oldest first
    waited = create_match(three_authors_bots, limits=FAST)
    assert waited.priority == Match.Priority.WAITED_FOR
    assert next_queued_match() == waited.pk
    person = User.objects.create_user("ida", password="not-used-here-4521")
    table = [v for v in register_builtins() if v.bot.name == "random"] * 2
    played = start_person_game(person, table, seat=0)
    assert played.priority == Match.Priority.PERSON
    assert next_queued_match() == played.pk  # queued last, played first
    Match.objects.filter(pk__in=[waited.pk, played.pk]).update(status=Match.Status.RUNNING)
    assert next_queued_match() == older[0].pk


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(600)
def test_a_celery_worker_takes_a_waited_for_match_before_older_routine_ones(
    server_mode: dict[str, str], workers: list[Any], three_authors_bots: list[BotVersion]
) -> None:
    older = routine(three_authors_bots, 3)  # queued while no worker runs
    waited = create_match(three_authors_bots, limits=FAST)
    workers.append(CeleryWorker(server_mode, concurrency=1))
    everyone = [*older, waited]

    def all_finished() -> bool:
        return Match.objects.filter(pk__in=[m.pk for m in everyone], status="finished").count() == 4

    wait_for(all_finished, 300, "the four matches", workers[0])
    order = list(
        Match.objects.filter(pk__in=[m.pk for m in everyone])
        .order_by("started_at")
        .values_list("pk", flat=True)
    )
    assert order == [waited.pk, *(m.pk for m in older)]  # the routine ones: oldest first
