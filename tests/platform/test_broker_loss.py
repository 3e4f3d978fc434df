"""The reaper's test of "the broker lost it" on a real Redis (server mode, the suite's
Redis, a database of this test worker's own), without a worker: a match queued before
the broker's data began (the epoch key gone, as after a Redis restarted without its
files) is queued again; one whose message the broker still holds, queued after the
data began, is not (the control). The end-to-end crash is in ``test_broker_restart``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.utils import timezone

from catan_arena.core.dispatch import BROKER_EPOCH_KEY, broker_data_since
from catan_arena.core.queues import MATCH_QUEUE
from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match, redispatch_lost_matches
from catan_arena.submissions.models import BotVersion
from tests.support.celery_worker import queue_keys, queued_tasks, redis_url
from tests.support.records import FAST

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_db(server_mode: dict[str, str], settings: Any) -> Iterator[redis.Redis]:
    """The test worker's broker database, emptied before and after."""
    settings.REDISPATCH_SECONDS = 5.0
    client = redis.Redis.from_url(redis_url())
    client.flushdb()
    yield client
    client.flushdb()


def queued_long_ago(bots: list[BotVersion], minutes: int) -> Match:
    match = create_match(bots, limits=FAST)
    Match.objects.filter(pk=match.pk).update(queued_at=timezone.now() - timedelta(minutes=minutes))
    return match


def test_a_match_queued_before_the_broker_lost_its_data_is_queued_again(
    broker_db: redis.Redis, three_authors_bots: list[BotVersion]
) -> None:
    match = queued_long_ago(three_authors_bots, 10)
    broker_db.flushdb()  # the Redis restarted without its data: message and epoch key gone
    create_match(three_authors_bots, limits=FAST)  # queued since: the queue is not empty
    assert len(queued_tasks(broker_db, MATCH_QUEUE)) == 1
    assert redispatch_lost_matches() == [match.pk]
    assert len(queued_tasks(broker_db, MATCH_QUEUE)) == 2
    assert redispatch_lost_matches() == []  # queued again now: after the data began


def test_control_a_match_the_broker_still_holds_is_left_alone(
    broker_db: redis.Redis, three_authors_bots: list[BotVersion]
) -> None:
    since = broker_data_since()  # the broker's data began before the match was queued
    assert since is not None and broker_db.exists(BROKER_EPOCH_KEY)
    broker_db.set(BROKER_EPOCH_KEY, repr((since - timedelta(hours=1)).timestamp()))
    queued_long_ago(three_authors_bots, 10)
    assert len(queued_tasks(broker_db, MATCH_QUEUE)) == 1  # its message is there
    assert redispatch_lost_matches() == []
    assert len(queued_tasks(broker_db, MATCH_QUEUE)) == 1


def test_a_lost_message_the_epoch_did_not_see_is_found_by_the_queue_length(
    broker_db: redis.Redis, three_authors_bots: list[BotVersion]
) -> None:
    broker_data_since()
    broker_db.set(BROKER_EPOCH_KEY, repr((timezone.now() - timedelta(hours=1)).timestamp()))
    match = queued_long_ago(three_authors_bots, 10)
    broker_db.delete(*queue_keys(MATCH_QUEUE))  # only the queue lost (the last second of a crash)
    assert redispatch_lost_matches() == [match.pk]
