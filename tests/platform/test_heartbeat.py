"""A claimed match's heartbeat: written while its worker plays, stopped when the attempt
no longer holds the match; the reaper re-queues a match whose worker fell silent (a
machine cut off) long before its deadline, never one that beats."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from catan_arena.accounts.models import User
from catan_arena.matches.heartbeat import Heartbeat, beat
from catan_arena.matches.models import Match
from catan_arena.matches.services import (
    MatchLimits,
    claim_match,
    create_match,
    requeue_stuck_matches,
)
from tests.support.records import active_bots

FAST = MatchLimits(decision_seconds=0.5, time_bank_seconds=2.0)
ELSEWHERE = "another-machine:4242:1"
"""A worker on another host: the reaper cannot see its process die."""


def claimed(author: User) -> tuple[Match, int]:
    match = create_match(active_bots(author, 3), limits=FAST)
    claim = claim_match(match.pk, worker=ELSEWHERE)
    assert claim is not None
    match.refresh_from_db()
    assert match.heartbeat_at is not None  # the claim is the first beat
    return match, claim.attempt


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_beats_while_the_block_runs_and_stops_after(author: User) -> None:
    match, attempt = claimed(author)
    first = match.heartbeat_at
    with Heartbeat(match.pk, attempt, interval=0.05):
        time.sleep(0.5)
    match.refresh_from_db()  # after the block: a beat may land between a read inside and its end
    last = match.heartbeat_at
    assert first is not None and last is not None and last > first
    time.sleep(0.3)
    match.refresh_from_db()
    assert match.heartbeat_at == last  # the thread stopped with the block


@pytest.mark.django_db
def test_a_beat_of_a_superseded_attempt_changes_nothing(author: User) -> None:
    match, attempt = claimed(author)
    assert beat(match.pk, attempt)
    Match.objects.filter(pk=match.pk).update(attempts=attempt + 1)  # someone else's now
    before = Match.objects.get(pk=match.pk).heartbeat_at
    assert not beat(match.pk, attempt)
    assert Match.objects.get(pk=match.pk).heartbeat_at == before


@pytest.mark.django_db
def test_a_silent_worker_is_lost_long_before_the_deadline(author: User, settings: Any) -> None:
    settings.MATCH_HEARTBEAT_TIMEOUT = 30.0
    match, _ = claimed(author)
    assert match.deadline is not None
    soon = timezone.now() + timedelta(seconds=31)
    assert match.deadline > soon + timedelta(seconds=60)  # the deadline is far off
    assert requeue_stuck_matches(now=timezone.now() + timedelta(seconds=20)) == []  # control
    assert requeue_stuck_matches(now=soon) == [match.pk]
    match.refresh_from_db()
    assert match.status == "queued"
    assert "no heartbeat from its worker for 30 s" in match.attempt_log[-1]["outcome"]


@pytest.mark.django_db
def test_a_match_that_beats_is_never_taken_from_its_worker(author: User, settings: Any) -> None:
    settings.MATCH_HEARTBEAT_TIMEOUT = 30.0
    match, attempt = claimed(author)
    later = timezone.now() + timedelta(seconds=25)
    Match.objects.filter(pk=match.pk).update(heartbeat_at=later)  # it beat just now
    assert requeue_stuck_matches(now=later + timedelta(seconds=20)) == []
    assert claim_match(match.pk, worker="thief:1:1") is None
    match.refresh_from_db()
    assert (match.status, match.attempts, match.worker) == ("running", attempt, ELSEWHERE)


def _connections_to_this_database() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        row = cursor.fetchone()
    return int(row[0])


@pytest.mark.django_db(transaction=True)
def test_one_thread_beats_for_successive_matches_and_holds_no_connection_between(
    author: User,
) -> None:
    import threading

    first, first_attempt = claimed(author)
    second, second_attempt = claimed(author)
    for match, attempt in ((first, first_attempt), (second, second_attempt)):
        before, idle = match.heartbeat_at, _connections_to_this_database()
        with Heartbeat(match.pk, attempt, interval=0.05):
            time.sleep(0.3)
            during = _connections_to_this_database()
        match.refresh_from_db()
        assert match.heartbeat_at is not None and before is not None
        assert match.heartbeat_at > before
        assert during == idle + 1  # the beater's connection (an earlier test's may be open)
        time.sleep(0.2)
        assert _connections_to_this_database() == idle  # closed once no attempt is watched
    assert [t.name for t in threading.enumerate()].count("heartbeat") == 1


@pytest.mark.django_db(transaction=True)
def test_a_beat_that_raises_leaves_the_thread_beating(
    author: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from catan_arena.matches import heartbeat

    match, attempt = claimed(author)
    real, failures = heartbeat.beat, []

    def beat_failing_once(match_id: int, attempt: int) -> bool:
        if not failures:
            failures.append(1)
            raise RuntimeError("a fault the heartbeat did not foresee")
        return real(match_id, attempt)

    monkeypatch.setattr(heartbeat, "beat", beat_failing_once)
    before = match.heartbeat_at
    with Heartbeat(match.pk, attempt, interval=0.05):
        time.sleep(0.4)
    match.refresh_from_db()
    assert failures == [1]
    assert before is not None and match.heartbeat_at is not None
    assert match.heartbeat_at > before  # beats after the one that raised
