"""Matches against the real PostgreSQL and the real sandbox: claimed once, recorded
once, voided attempts re-queued a bounded number of times, lost workers re-queued."""

from __future__ import annotations

import gzip
import hashlib
import os
import threading
import time
from datetime import timedelta
from typing import Any

import orjson
import pytest
from django.utils import timezone

from arena_runner import BotRunner
from catan_arena.accounts.models import User
from catan_arena.matches import services
from catan_arena.matches.models import Match
from catan_arena.matches.play import (
    await_bots_exit,
    close_worker_runner,
    play_claim,
    play_claim_bots_exiting,
    worker_runner,
)
from catan_arena.matches.selectors import replay_of
from catan_arena.matches.services import (
    MatchLimits,
    claim_match,
    create_match,
    record_result,
    requeue_stuck_matches,
    run_match,
)
from catan_arena.ratings.models import RatingChange
from engine.replay import Replay, verify
from tests.support.records import active_bots

FAST = MatchLimits(decision_seconds=0.5, time_bank_seconds=2.0)


@pytest.mark.django_db
def test_a_match_is_played_in_the_sandbox_and_recorded(author: User) -> None:
    versions = active_bots(author, 4)
    match = create_match(versions, limits=FAST, ladder=True)
    assert len(match.seed) == 32 and int(match.seed, 16) >= 0  # 128 bits from secrets
    assert run_match(match.pk) == "finished"
    match.refresh_from_db()
    assert (match.status, match.attempts, match.sandbox_tier) == ("finished", 1, "FULL")
    replay = replay_of(match)
    assert replay is not None
    payload = orjson.dumps(replay)
    assert hashlib.sha256(gzip.decompress(bytes(match.replay))).hexdigest() == match.replay_sha256
    verify(Replay.from_dict(orjson.loads(payload)))  # re-simulates bit for bit
    seats = list(match.seats.order_by("seat"))
    assert [s.version for s in seats] == versions
    assert sorted(s.placing for s in seats)[0] == 1
    assert sum(s.won for s in seats) == (1 if match.winner_seat is not None else 0)
    assert all(s.decisions > 0 for s in seats)
    assert RatingChange.objects.filter(match=match).count() == 4


SLOW_EXIT = 0.5
"""Seconds a test adds to a game's release, so its bots are surely still exiting when
the worker records the result and claims the next match."""


def _slow_release(runner: BotRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    real = runner.release_all

    def slow(drivers: Any) -> None:
        if drivers:
            time.sleep(SLOW_EXIT)
        real(drivers)

    monkeypatch.setattr(runner, "release_all", slow)


@pytest.mark.django_db
def test_the_bots_exit_beside_the_record_and_the_next_claim_and_are_gone_before_the_next_game(
    author: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    versions = active_bots(author, 4)
    first, second = (create_match(versions, limits=FAST, ladder=True) for _ in range(2))
    runner = worker_runner()
    _slow_release(runner, monkeypatch)
    exits: list[threading.Thread] = []
    real_play, real_driver = play_claim_bots_exiting, runner.driver
    seen_at_start: list[tuple[bool, int]] = []  # (a previous game's exit alive, bots held)

    def keep_exit(*args: Any, **kwargs: Any) -> Any:
        played = real_play(*args, **kwargs)
        exits.append(played.exiting)
        return played

    def driver(*args: Any, **kwargs: Any) -> Any:
        if len(seen_at_start) == len(exits):  # a game's first bot
            seen_at_start.append((any(t.is_alive() for t in exits), len(runner.drivers)))
        return real_driver(*args, **kwargs)

    monkeypatch.setattr(services, "play_claim_bots_exiting", keep_exit)
    monkeypatch.setattr(runner, "driver", driver)
    assert run_match(first.pk) == "finished"
    assert exits[0].is_alive()  # recorded while its bots exit: the task does not wait
    assert run_match(second.pk) == "finished"
    assert seen_at_start == [(False, 0), (False, 0)]  # the second game began after they left
    await_bots_exit()
    assert not any(t.is_alive() for t in exits) and runner.drivers == []


@pytest.mark.django_db
def test_the_last_games_bots_are_gone_before_the_worker_closes_its_runner(
    author: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = create_match(active_bots(author, 4), limits=FAST)
    runner = worker_runner()
    _slow_release(runner, monkeypatch)
    closed_with: list[int] = []
    real_close = runner.close

    def close() -> None:
        closed_with.append(len(runner.drivers))
        real_close()

    monkeypatch.setattr(runner, "close", close)
    assert run_match(match.pk) == "finished"
    assert runner.drivers  # still exiting
    close_worker_runner()
    assert closed_with == [0]


@pytest.mark.django_db
def test_seeds_are_fresh_for_every_match(author: User) -> None:
    versions = active_bots(author, 3)
    seeds = {create_match(versions, limits=FAST).seed for _ in range(20)}
    assert len(seeds) == 20


@pytest.mark.django_db
def test_a_second_delivery_finds_nothing_to_do(author: User) -> None:
    match = create_match(active_bots(author, 3), limits=FAST, ladder=True)
    assert run_match(match.pk) == "finished"
    assert run_match(match.pk) is None
    match.refresh_from_db()
    assert match.attempts == 1
    assert RatingChange.objects.filter(match=match).count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_deliveries_count_once(author: User) -> None:
    """Two threads (two database connections) deliver the same match at once."""
    match = create_match(active_bots(author, 3), limits=FAST, ladder=True)
    barrier = threading.Barrier(2)
    results: list[str | None] = []

    def deliver() -> None:
        barrier.wait()
        try:
            results.append(run_match(match.pk))
        finally:
            from django.db import connection

            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert sorted(results, key=str) == [None, "finished"]
    match.refresh_from_db()
    assert match.attempts == 1
    assert RatingChange.objects.filter(match=match).count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_claim_waits_for_a_claim_in_progress_and_then_finds_it_taken(author: User) -> None:
    """The claim locks the match's row: a second claimer waits for the first one's
    commit and then sees the match taken (without the lock both would take it)."""
    match = create_match(active_bots(author, 3), limits=FAST)
    locked, release = threading.Event(), threading.Event()
    claims: list[object] = []

    def first_claimer() -> None:
        from django.db import connection, transaction

        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                locked.set()
                release.wait(30)
                Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
        finally:
            connection.close()

    def second_claimer() -> None:
        from django.db import connection

        try:
            claims.append(claim_match(match.pk, worker="second"))
        finally:
            connection.close()

    first = threading.Thread(target=first_claimer)
    first.start()
    assert locked.wait(30)
    second = threading.Thread(target=second_claimer)
    second.start()
    second.join(1.0)
    assert second.is_alive() and claims == []  # waiting for the first claimer's commit
    release.set()
    first.join(30)
    second.join(30)
    assert claims == [None]


@pytest.mark.django_db(transaction=True)
def test_a_queued_match_is_taken_by_two_statements_outside_any_transaction(
    author: User,
) -> None:
    """No ``BEGIN`` and ``COMMIT`` around a queued match's claim: its read and its
    guarded write each commit by themselves (two round trips, where four were)."""
    from django.db import connection

    match = create_match(active_bots(author, 3), limits=FAST)
    seen: list[bool] = []

    def note(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(connection.in_atomic_block)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        claim = claim_match(match.pk, worker="here")
    assert claim is not None and claim.attempt == 1
    assert seen == [False, False]
    match.refresh_from_db()
    assert (match.status, match.attempts, match.worker) == ("running", 1, "here")


@pytest.mark.django_db
def test_a_claim_read_before_another_claim_was_put_back_does_not_take_the_match(
    author: User,
) -> None:
    """Between a claim's read and its write another worker took the match and a stop
    put it back uncounted: the same status and attempt count as read, but not the same
    match to take (its log holds the interruption); a fresh read takes it."""
    match = create_match(active_bots(author, 3), limits=FAST)
    stale = list(services._seats_with_match(match.pk))
    first = claim_match(match.pk, worker="first")
    assert first is not None
    assert services.release_interrupted(match.pk, "first")
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("queued", 0)
    assert services._claim_queued(stale, "second", timezone.now()) is None
    again = claim_match(match.pk, worker="third")
    assert again is not None and again.attempt == 1
    match.refresh_from_db()
    assert match.worker == "third" and "interrupted" in match.attempt_log[-1]["outcome"]


@pytest.mark.django_db
def test_a_lost_attempt_cannot_record_after_the_match_was_requeued(author: User) -> None:
    match = create_match(active_bots(author, 3), limits=FAST, ladder=True)
    lost = claim_match(match.pk, worker="gone-host:1")
    assert lost is not None
    result = play_claim(lost)  # the lost worker's game, finished too late
    later = timezone.now() + timedelta(days=1)
    assert requeue_stuck_matches(now=later) == [match.pk]
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("queued", 1)
    assert "lost" in match.attempt_log[-1]["outcome"]
    assert run_match(match.pk) == "finished"
    assert record_result(lost, result) is False  # the stale attempt changes nothing
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("finished", 2)
    assert RatingChange.objects.filter(match=match).count() == 3


@pytest.mark.django_db
def test_a_dead_local_worker_is_noticed_without_waiting_for_the_deadline(
    author: User,
) -> None:
    import subprocess

    match = create_match(active_bots(author, 3), limits=FAST)
    Match.objects.filter(pk=match.pk).update(max_attempts=10)
    host = services.socket.gethostname()
    child = subprocess.Popen(["sleep", "60"])
    name = f"{host}:{child.pid}:{services._start_time(child.pid)}"
    assert claim_match(match.pk, worker=name)
    assert requeue_stuck_matches() == []  # alive
    child.kill()
    assert requeue_stuck_matches() == [match.pk]  # a zombie (not reaped yet) is dead
    child.wait()
    assert claim_match(match.pk, worker=name)
    assert requeue_stuck_matches() == [match.pk]  # exited and reaped
    assert claim_match(match.pk, worker=f"{host}:{os.getpid()}:1")
    assert requeue_stuck_matches() == [match.pk]  # its pid now runs another process
    # A live process of this machine (this one) is not taken for dead.
    assert claim_match(match.pk, worker=services.worker_name())
    assert requeue_stuck_matches() == []


@pytest.mark.django_db
def test_platform_faults_void_attempts_then_fail_the_match(
    author: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    versions = active_bots(author, 3)
    match = create_match(versions, limits=FAST, ladder=True)
    later = create_match(versions, limits=FAST, ladder=True)

    def sandbox_down(claim: object, **_: object) -> None:
        raise OSError("bubblewrap: cannot create namespace")

    monkeypatch.setattr(services, "play_claim_bots_exiting", sandbox_down)
    statuses = [run_match(match.pk) for _ in range(3)]
    assert statuses == ["queued", "queued", "failed"]
    match.refresh_from_db()
    assert match.attempts == 3 and len(match.attempt_log) == 3
    assert "cannot create namespace" in match.attempt_log[0]["outcome"]
    assert run_match(match.pk) is None
    monkeypatch.undo()
    assert run_match(later.pk) == "finished"  # a failed match never blocks the ladder
    assert not RatingChange.objects.filter(match=match).exists()
    assert RatingChange.objects.filter(match=later).count() == 3


@pytest.mark.django_db
def test_a_match_seats_three_or_four(author: User) -> None:
    with pytest.raises(ValueError, match="3 or 4"):
        create_match(active_bots(author, 2), limits=FAST)
    assert Match.objects.count() == 0


def _drop_connection_once(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first result write loses its PostgreSQL connection halfway (after the match
    row is updated, before the seats): the server ends the session, as a restart does."""
    from django.db import connection

    drops: list[int] = []
    fill = services._fill_seats

    def dropping(seats: Any, result: Any) -> None:
        if not drops:
            drops.append(1)
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        fill(seats, result)

    monkeypatch.setattr(services, "_fill_seats", dropping)
    monkeypatch.setattr(services, "RECORD_BACKOFF", 0.05)
    return drops


@pytest.mark.django_db(transaction=True)
def test_a_connection_dropped_during_the_result_write_is_retried_and_counted_once(
    author: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    drops = _drop_connection_once(monkeypatch)
    match = create_match(active_bots(author, 3), limits=FAST, ladder=True)
    assert run_match(match.pk) == "finished" and drops == [1]
    match.refresh_from_db()
    finished = [a for a in match.attempt_log if a["outcome"] == "finished"]
    assert match.attempts == 1 and len(finished) == 1 and match.replay
    assert all(s.placing is not None for s in match.seats.all())
    assert RatingChange.objects.filter(match=match).count() == 3


@pytest.mark.django_db(transaction=True)
def test_without_retries_the_dropped_write_leaves_nothing_half_written(
    author: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: one try only; the write fails whole (the match still running, no
    replay, no seat placed, no rating), for the reaper to re-queue."""
    from django.db import OperationalError

    _drop_connection_once(monkeypatch)
    monkeypatch.setattr(services, "RECORD_TRIES", 1)
    match = create_match(active_bots(author, 3), limits=FAST, ladder=True)
    with pytest.raises(OperationalError):
        run_match(match.pk)
    from django.db import connection

    connection.close()
    match.refresh_from_db()
    assert match.status == "running" and not match.replay
    assert all(s.placing is None for s in match.seats.all())
    assert not RatingChange.objects.filter(match=match).exists()
