"""Server mode against real parts: this machine's Redis and PostgreSQL and real
``celery worker`` processes started by the tests (never eager mode)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import redis
from django.conf import settings

from catan_arena.accounts.models import User
from catan_arena.celery import app
from catan_arena.core.queues import (
    FILL_LADDER_TASK,
    MATCH_QUEUE,
    PLAY_TASK,
    RATE_TASK,
    VALIDATE_TASK,
    VALIDATION_QUEUE,
    WARM_PAGES_TASK,
)
from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match, run_match
from catan_arena.matches.tasks import play_match_task
from catan_arena.ratings.models import RatingChange
from catan_arena.ratings.receivers import RATING_BATCH_SECONDS
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins, upload_version
from catan_arena.submissions.tasks import validate_version_task
from catan_arena.tournaments.selectors import standings
from catan_arena.tournaments.services import create_round_robin
from tests.support.bots import VALID_BOT
from tests.support.celery_worker import CeleryWorker, queued_tasks, ratings_caught_up, wait_for
from tests.support.records import FAST, active_bots

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]
SLOW_BOT = VALID_BOT.replace(
    b"        legal = observation.legal_actions\n",
    b"        import time\n        time.sleep(0.05)\n        legal = observation.legal_actions\n",
)


def status_of(match: Match) -> str:
    match.refresh_from_db()
    return match.status


def test_an_upload_is_validated_by_a_worker(
    server_mode: dict[str, str], workers: list[Any], author: User
) -> None:
    workers.append(CeleryWorker(server_mode))
    good = upload_version(author, "wanderer", "w.py", VALID_BOT).version
    bad = upload_version(author, "broken", "b.py", b"raise SystemExit('no')\n").version
    for version, final in ((good, "active"), (bad, "rejected")):

        def validated(version: BotVersion = version) -> bool:
            version.refresh_from_db()
            return version.status not in ("pending", "validating")

        wait_for(validated, 90, f"{version} validated", workers[0])
        assert version.status == final, version.report
    assert "smoke game" in good.report
    assert "no" in bad.report


def test_a_round_robin_is_played_by_workers(
    server_mode: dict[str, str], workers: list[Any], author: User, other_author: User
) -> None:
    workers.append(CeleryWorker(server_mode, concurrency=2))
    builtins = [v for v in register_builtins() if v.bot.name != "search"]
    entries = [*builtins, *active_bots(author, 1), *active_bots(other_author, 1)]
    tournament = create_round_robin("celery cup", entries, cycles=1, limits=FAST)
    total = tournament.matches.count()

    def all_played() -> bool:
        return tournament.matches.filter(status="finished").count() == total

    wait_for(all_played, 240, "every fixture played", workers[0])
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    table = standings(tournament)
    assert sum(row.games for row in table) == sum(m.players for m in tournament.matches.all())
    assert {m.worker.split(":")[0] for m in tournament.matches.all()} != {""}


def test_a_match_delivered_three_times_counts_once(
    server_mode: dict[str, str], workers: list[Any], author: User
) -> None:
    match = create_match(active_bots(author, 3), limits=FAST, ladder=True)  # queued once
    for _ in range(2):  # and twice more, while no worker runs
        app.send_task(PLAY_TASK, (match.pk,))
    broker = redis.Redis.from_url(server_mode["CELERY_BROKER_URL"])
    assert queued_tasks(broker, MATCH_QUEUE).count(PLAY_TASK) == 3
    workers.append(CeleryWorker(server_mode, concurrency=3))
    wait_for(lambda: status_of(match) == "finished", 120, "the match", workers[0])
    wait_for(lambda: not queued_tasks(broker, MATCH_QUEUE), 60, "the queue drained", workers[0])
    wait_for(lambda: not broker.hlen("unacked"), 60, "every delivery acked", workers[0])
    wait_for(ratings_caught_up, 60, "the match rated", workers[0])
    match.refresh_from_db()
    assert match.attempts == 1
    assert RatingChange.objects.filter(match=match).count() == 3
    assert match.seats.filter(placing__isnull=False).count() == 3


def test_a_worker_killed_mid_match_then_the_match_finishes_once(
    server_mode: dict[str, str], workers: list[Any], author: User
) -> None:
    slow = upload_version(author, "sleepy", "sleepy.py", SLOW_BOT).version
    slow.status = BotVersion.Status.ACTIVE
    slow.save(update_fields=["status"])
    match = create_match([slow, *active_bots(author, 2)], limits=FAST, ladder=True)
    first = CeleryWorker(server_mode, concurrency=1)
    workers.append(first)
    wait_for(lambda: status_of(match) == "running", 60, "the match to start", first)
    match.refresh_from_db()
    assert match.worker and match.attempts == 1
    first.kill()  # SIGKILL: the worker, its pool and the bots it started, mid-game
    assert status_of(match) == "running"

    env = server_mode | {"CATAN_ARENA_REAPER_SECONDS": "1"}
    second = CeleryWorker(env, concurrency=1, beat=True)
    workers.append(second)
    wait_for(lambda: status_of(match) == "finished", 180, "the match to finish", second)
    wait_for(ratings_caught_up, 60, "the match rated", second)
    match.refresh_from_db()
    assert match.attempts == 2
    assert "lost" in match.attempt_log[0]["outcome"]
    assert match.attempt_log[-1]["outcome"] == "finished"
    assert RatingChange.objects.filter(match=match).count() == 3


def test_the_names_sent_are_the_registered_tasks() -> None:
    """dispatch sends tasks by name: the names must be the workers' tasks."""
    assert play_match_task.name == PLAY_TASK and validate_version_task.name == VALIDATE_TASK
    app.loader.import_default_modules()
    sent = {PLAY_TASK, VALIDATE_TASK, FILL_LADDER_TASK, WARM_PAGES_TASK, RATE_TASK}
    assert sent <= set(app.tasks)
    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} <= set(app.tasks)


def _rating_tasks(broker: str) -> list[dict[str, Any]]:
    """The rating tasks waiting on the quick queue (their headers)."""
    waiting = redis.Redis.from_url(broker).lrange(VALIDATION_QUEUE, 0, -1)
    headers = [json.loads(message)["headers"] for message in waiting]
    return [h for h in headers if h["task"] == RATE_TASK]


def test_results_recorded_within_a_second_are_rated_by_one_task(
    server_mode: dict[str, str], workers: list[Any], three_authors_bots: list[BotVersion]
) -> None:
    """Each recorded ladder match asks for its rating; those within
    ``RATING_BATCH_SECONDS`` of the first send one task, due that much later, which a
    worker then runs over all of them. A result after that sends another (control)."""
    broker = server_mode["CELERY_BROKER_URL"]
    matches = [create_match(three_authors_bots, limits=FAST, ladder=True) for _ in range(3)]
    for match in matches[:2]:
        assert run_match(match.pk) == "finished"
    first = _rating_tasks(broker)
    assert len(first) == 1 and first[0]["eta"] is not None
    time.sleep(RATING_BATCH_SECONDS + 0.2)
    assert run_match(matches[2].pk) == "finished"
    assert len(_rating_tasks(broker)) == 2  # the mark expired: a task of its own
    workers.append(CeleryWorker(server_mode, concurrency=1, queues=VALIDATION_QUEUE))
    wait_for(ratings_caught_up, 60, "the matches rated", workers[0])
    assert RatingChange.objects.filter(match__in=matches).count() == 9


def test_a_rating_is_still_asked_for_when_the_cache_is_unreachable(
    server_mode: dict[str, str],
    three_authors_bots: list[BotVersion],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The batching mark is in the cache; without a cache the task goes out unbatched
    (the result was committed: nothing may fail after it)."""
    from catan_arena.core import dispatch

    def unreachable(*args: object, **kwargs: object) -> bool:
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(dispatch.cache, "add", unreachable)
    matches = [create_match(three_authors_bots, limits=FAST, ladder=True) for _ in range(2)]
    for match in matches:
        assert run_match(match.pk) == "finished"
    assert len(_rating_tasks(server_mode["CELERY_BROKER_URL"])) == 2
