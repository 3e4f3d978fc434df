"""Writes on matches: create, claim, play, record (exactly once), void, re-queue.

:func:`run_match` is the one code path: the Celery task calls it, and so do the
embedded default's local worker processes."""

from __future__ import annotations

import contextlib
import copy
import logging
import os
import socket
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import (
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
    transaction,
)
from django.db.models import QuerySet
from django.utils import timezone

from arena_runner import MatchResult
from arena_runner.clock_limits import clock_problem, game_budget
from arena_runner.match import worst_case_seconds
from arena_runner.person import PERSON_GAME_SECONDS
from catan_arena.core import dispatch
from catan_arena.core.queues import MATCH_QUEUE
from catan_arena.core.row_updates import update_rows
from catan_arena.matches import replay_blob
from catan_arena.matches.heartbeat import Heartbeat
from catan_arena.matches.live import LiveFeed
from catan_arena.matches.models import Match, MatchSeat, PersonSeat
from catan_arena.matches.person_mailbox import PersonClaim
from catan_arena.matches.play import Claim, play_claim_bots_exiting
from catan_arena.matches.signals import match_done
from catan_arena.submissions.models import BotVersion
from engine import RulesConfig
from engine.config import PLAYER_COUNTS
from engine.rng import new_seed

log = logging.getLogger(__name__)
Status = Match.Status
TASK_MARGIN = 30.0
"""Seconds of a match task's soft time limit beyond what its bots may take (the engine,
the autopilot of forfeited seats, the replay and its record)."""


@dataclass(frozen=True)
class MatchLimits:
    decision_seconds: float
    time_bank_seconds: float = 0.0
    game_seconds: float | None = None
    """Each seat's wall-clock budget for the game (default: the runner's game_budget)."""

    @classmethod
    def default(cls) -> MatchLimits:
        return cls(settings.MATCH_DECISION_SECONDS, settings.MATCH_TIME_BANK_SECONDS)

    @classmethod
    def asked(
        cls, decision_seconds: float | None = None, time_bank_seconds: float | None = None
    ) -> MatchLimits:
        """The clock asked for, the server's default for what was left out."""
        default = cls.default()
        return cls(
            default.decision_seconds if decision_seconds is None else decision_seconds,
            default.time_bank_seconds if time_bank_seconds is None else time_bank_seconds,
        )

    @property
    def per_seat(self) -> float:
        if self.game_seconds is not None:
            return self.game_seconds
        return game_budget(self.decision_seconds, self.time_bank_seconds)

    def problem(self) -> str | None:
        """What is wrong with this clock (:func:`arena_runner.clock_limits.clock_problem`:
        the bounds every way in shares), or None."""
        return clock_problem(self.decision_seconds, self.time_bank_seconds, self.game_seconds)


def match_budget(players: int, game_seconds: float) -> float:
    """A match's soft time limit (and its claim's deadline, before the margin): the
    longest its bots can make it last — every seat's start-up and end plus its whole
    wall-clock budget (:func:`arena_runner.match.worst_case_seconds`) — plus the
    engine's share, so seats using every allowance finish as an ordinary game."""
    return worst_case_seconds(players, game_seconds) + TASK_MARGIN


def budget_of(match: Match) -> float:
    """:func:`match_budget` of ``match``; a person's game adds the person's whole
    budget (:data:`~arena_runner.person.PERSON_GAME_SECONDS`)."""
    budget = match_budget(match.players, match.game_seconds)
    return budget + (PERSON_GAME_SECONDS if match.person_id is not None else 0.0)


@dataclass(frozen=True)
class PersonSetup:
    """A person's seat in a new match: who, where, and the person's clocks."""

    user_id: int
    seat: int
    decision_seconds: float
    away_seconds: float


def create_match(
    versions: Sequence[BotVersion],
    *,
    rules: RulesConfig | None = None,
    limits: MatchLimits | None = None,
    ladder: bool = False,
    tournament_id: int | None = None,
    round: int | None = None,
    seed: str | None = None,
    ab_test_id: int | None = None,
    person: PersonSetup | None = None,
    priority: int | None = None,
) -> Match:
    """A queued match with ``versions[s]`` in seat ``s`` (queued to a worker on commit).
    The seed is fresh from :func:`engine.rng.new_seed` (128 bits) unless given. With
    ``person``, that seat is a person's (its version is the autopilot's stand-in).
    ``priority`` (:class:`.Match.Priority`): by default a person's game comes first, a
    ladder match is the background's, every other someone waits for."""
    rules = rules or RulesConfig(players=len(versions))
    if rules.players != len(versions) or len(versions) not in PLAYER_COUNTS:
        raise ValueError(f"a match seats 3 or 4 versions; the rules say {rules.players}")
    limits = limits or MatchLimits.default()
    with transaction.atomic():
        match = Match.objects.create(
            seed=seed or new_seed(),
            rules=rules.to_dict(),
            decision_seconds=limits.decision_seconds,
            time_bank_seconds=limits.time_bank_seconds,
            game_seconds=limits.per_seat,
            max_attempts=settings.MATCH_MAX_ATTEMPTS,
            ladder=ladder,
            tournament_id=tournament_id,
            round=round,
            ab_test_id=ab_test_id,
            person_id=None if person is None else person.user_id,
            priority=_default_priority(ladder, person) if priority is None else priority,
        )
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, seat=s, version=v) for s, v in enumerate(versions)
        )
        if person is not None:
            PersonSeat.objects.create(
                match=match,
                seat=person.seat,
                decision_seconds=person.decision_seconds,
                away_seconds=person.away_seconds,
            )
        dispatch.on_commit_play(match.pk, budget_of(match), match.priority)
    return match


def _default_priority(ladder: bool, person: PersonSetup | None) -> int:
    if person is not None:
        return int(Match.Priority.PERSON)
    return int(Match.Priority.BACKGROUND if ladder else Match.Priority.WAITED_FOR)


def worker_name() -> str:
    """``host:pid:start`` of this process (its start time tells a reused pid apart)."""
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_time(pid)}"


def _start_time(pid: int) -> str:
    """The process's start time in clock ticks since boot ("" if it is gone or a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    fields = stat[stat.rindex(")") + 2 :].split()
    return "" if fields[0] in ("Z", "X") else fields[19]


CLAIM_FIELDS = [
    "status", "attempts", "worker", "started_at", "deadline", "heartbeat_at", "attempt_log",
    "live",
]  # fmt: skip
TAKE_FIELDS = [f for f in CLAIM_FIELDS if f != "attempt_log"]
"""What taking a queued match writes (its attempt log is unchanged)."""
TAKEN_AS_READ = ("status", "attempts", "started_at")
"""What must not have changed since a queued match was read for it to be taken: any
claim meanwhile sets a new start, even one put back since with the same status and
attempt count (a stop does not count the attempt)."""


def claim_match(match_id: int, worker: str | None = None) -> Claim | None:
    """Take a match for this worker: ``queued → running`` (or a running one whose
    worker is lost), guarded in the database so one caller wins. None if the match is
    not there to take.

    A queued match (the usual case) is read, then taken by one ``UPDATE`` guarded by the
    status, attempt and start it was read with: two statements, no transaction around them (a
    ``BEGIN`` and a ``COMMIT`` are two more round trips, each a wait while every core is
    busy playing). A second claimer's ``UPDATE`` waits for the first's row lock and
    then finds the status changed. A lost attempt's match is taken under its row's lock
    (:func:`_claim_lost`), as its attempt log and a give-up are written with it."""
    now = timezone.now()
    seats = list(_seats_with_match(match_id))
    if not seats:
        return None
    match = seats[0].match
    if match.status == Status.QUEUED:
        return _claim_queued(seats, worker, now)
    if match.status == Status.RUNNING and lost_reason(match, now) is not None:
        return _claim_lost(match_id, worker, now)
    return None


def _seats_with_match(match_id: int) -> QuerySet[MatchSeat]:
    """The match's seats in seat order with their versions, bots and the match, in one
    query (not the match's replay, nor a lost attempt's live view, which the claim only
    clears)."""
    return (
        MatchSeat.objects.select_related("match", "version__bot")
        .defer("match__live", "match__replay")
        .filter(match_id=match_id)
        .order_by("seat")
    )


def _claim_queued(seats: list[MatchSeat], worker: str | None, now: datetime) -> Claim | None:
    match = seats[0].match
    read = {name: getattr(match, name) for name in TAKEN_AS_READ}
    _take(match, worker, now)
    taken = Match.objects.filter(pk=match.pk, **read)
    changes = {name: getattr(match, name) for name in TAKE_FIELDS}
    # a person's seat is seen in the take's transaction; a bots' match needs none
    with transaction.atomic() if match.person_id is not None else contextlib.nullcontext():
        if not taken.update(**changes):
            return None
        return _claim(seats, _person_claim(match))


def _claim_lost(match_id: int, worker: str | None, now: datetime) -> Claim | None:
    """Take a running match whose worker is lost, its row locked while the lost
    attempt is logged (or the match given up after its last attempt)."""
    with transaction.atomic():
        seats = list(_seats_with_match(match_id).select_for_update(of=("match",)))
        if not seats:
            return None
        match = seats[0].match
        lost = lost_reason(match, now) if match.status == Status.RUNNING else None
        if lost is None:
            return None
        _note_attempt(match, lost, now)
        if match.attempts >= match.max_attempts:
            _give_up(match)
            return None
        _take(match, worker, now)
        match.save(update_fields=CLAIM_FIELDS)
        return _claim(seats, _person_claim(match))


def _take(match: Match, worker: str | None, now: datetime) -> None:
    """Make ``match`` this worker's next attempt (in memory; the caller writes it)."""
    budget = budget_of(match)
    match.status = Status.RUNNING
    match.attempts += 1
    match.worker = (worker or worker_name())[:200]
    match.started_at = now
    match.deadline = now + timedelta(seconds=budget + settings.MATCH_DEADLINE_MARGIN)
    match.heartbeat_at = now
    match.live = None


def _claim(seats: list[MatchSeat], person: PersonClaim | None) -> Claim:
    match = seats[0].match
    for seat in seats:
        seat.match = match
    return Claim(
        match_id=match.pk,
        attempt=match.attempts,
        seed=match.seed,
        rules=RulesConfig.from_dict(match.rules),
        decision_seconds=match.decision_seconds,
        time_bank_seconds=match.time_bank_seconds,
        game_seconds=match.game_seconds,
        seats=tuple(seats),
        person=person,
    )


def _person_claim(match: Match) -> PersonClaim | None:
    """The person of a person's game (seen now: the worker's wait starts afresh)."""
    if match.person_id is None:
        return None
    seat = PersonSeat.objects.select_related("match__person").get(match=match)
    seat.seen_at = timezone.now()
    seat.save(update_fields=["seen_at"])
    return PersonClaim(
        seat.seat,
        seat.decision_seconds,
        seat.away_seconds,
        f"{seat.match.person.username} (person)" if seat.match.person else "person",
    )


def run_match(match_id: int, worker: str | None = None) -> str | None:
    """Claim, play and record one match; the status it ends in, or None when it was
    not there to claim (already taken, finished or unknown). A platform fault (the
    sandbox, not a bot) voids the attempt and re-queues it a bounded number of times."""
    claim = claim_match(match_id, worker)
    if claim is None:
        return None
    try:
        with Heartbeat(claim.match_id, claim.attempt):
            played = play_claim_bots_exiting(claim, on_step=LiveFeed(claim.match_id, claim.attempt))
    except Exception as exc:
        log.exception("match %s attempt %s failed on the platform", match_id, claim.attempt)
        return void_attempt(claim, f"platform fault: {type(exc).__name__}: {exc}")
    # written while the bots exit (all gone before the next game: play.await_bots_exit)
    if played.result.voided:
        return void_attempt(claim, played.result.voided)
    recorded = record_with_retries(claim, played.result)
    return str(Status.FINISHED) if recorded else None


RECORD_TRIES = 5
RECORD_BACKOFF = 0.5
"""Seconds before the second try of a result write; doubled for each further try."""


def record_with_retries(claim: Claim, result: MatchResult) -> bool:
    """:func:`record_result`, tried again when the database connection fails during it
    (a restarted or unreachable PostgreSQL): each try is one transaction, all or nothing,
    and only the attempt holding the match can write, so a retry never counts twice. The
    last failure propagates (the reaper then re-queues the match after its deadline)."""
    for tries in range(1, RECORD_TRIES + 1):
        try:
            return record_result(claim, result)
        except (OperationalError, InterfaceError) as exc:
            if tries == RECORD_TRIES:
                raise
            log.warning("match %s: result write failed (%s); trying again", claim.match_id, exc)
            close_old_connections()
            connection.close()
            time.sleep(RECORD_BACKOFF * 2 ** (tries - 1))
    raise AssertionError("unreachable")


def record_result(claim: Claim, result: MatchResult) -> bool:
    """Write the result, the seats and the ladder's rating updates in one transaction,
    only if this attempt still holds the match (so a match counts exactly once): the
    match's row is written by one ``UPDATE`` guarded by its status and attempt (no other
    writer changes what it writes while the attempt holds the match: the reaper and a
    stop change the status or the attempt first)."""
    compressed, sha256 = replay_blob.pack(result.replay.to_dict())
    now = timezone.now()
    match = copy.copy(claim.match)  # as the claim left it (a retry starts from it again)
    outcome = result.outcome
    match.status = Status.FINISHED
    match.finished_at = now
    if match.started_at is not None:
        match.duration_seconds = (now - match.started_at).total_seconds()
    match.replay = compressed
    match.replay_sha256 = sha256
    match.turns = outcome.turns
    match.termination = outcome.termination.label
    match.winner_seat = result.winner
    match.sandbox_tier = result.tier
    match.live = None
    _note_attempt(match, "finished", now)
    with transaction.atomic():
        held = Match.objects.filter(
            pk=claim.match_id, status=Status.RUNNING, attempts=claim.attempt
        ).update(**{name: getattr(match, name) for name in MATCH_RESULT_FIELDS})
        if not held:
            log.warning("match %s: attempt %s no longer holds it", match.pk, claim.attempt)
            return False
        seats = list(claim.seats)  # the match's rows, loaded by its claim
        _fill_seats(seats, result)
        update_rows(seats, SEAT_RESULT_FIELDS)
        match_done.send(Match, match=match, seats=seats)  # ratings, ladder, tournament, A/B
    return True


MATCH_RESULT_FIELDS = [
    "status", "finished_at", "duration_seconds", "replay", "replay_sha256", "turns",
    "termination", "winner_seat", "sandbox_tier", "attempt_log", "live",
]  # fmt: skip
SEAT_RESULT_FIELDS = [
    "points", "placing", "won", "forfeit", "faults", "fault_count", "decisions",
    "mean_decision_ms", "max_decision_ms", "cpu_seconds", "bank_left_seconds", "log",
]  # fmt: skip


def _fill_seats(seats: list[MatchSeat], result: MatchResult) -> None:
    forfeits = {f.seat: f for f in result.forfeits}
    placings, strikes = result.placings, result.strikes
    for row in seats:
        s = row.seat
        stats = result.stats[s]
        row.points = result.outcome.points[s]
        row.placing = placings[s]
        row.won = result.winner == s
        row.forfeit = forfeits[s].to_dict() if s in forfeits else None
        row.faults = [f.to_dict() for f in result.faults[s]]
        row.fault_count = strikes[s]
        row.decisions = stats.decisions
        row.mean_decision_ms = 1000 * stats.mean
        row.max_decision_ms = 1000 * stats.max
        row.cpu_seconds = stats.cpu
        row.bank_left_seconds = stats.bank_left
        row.log = result.logs[s] if s < len(result.logs) else ""


def void_attempt(claim: Claim, reason: str) -> str | None:
    """This attempt does not count: re-queue the match, or give up after its last
    attempt (``failed``). None if the attempt no longer holds the match."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=claim.match_id)
        if match.status != Status.RUNNING or match.attempts != claim.attempt:
            return None
        _note_attempt(match, f"void: {reason}", timezone.now())
        if match.attempts >= match.max_attempts:
            _give_up(match)
        else:
            _requeue(match)
        return str(match.status)


def requeue_stuck_matches(now: datetime | None = None) -> list[int]:
    """Matches still ``running`` past their deadline, or whose worker process on this
    machine is gone (their worker was lost), are re-queued, or failed after their last
    attempt. Returns their ids."""
    now = now or timezone.now()
    running = Match.objects.filter(status=Status.RUNNING).only(
        "pk", "deadline", "heartbeat_at", "worker"
    )
    stuck = [match.pk for match in running if lost_reason(match, now) is not None]
    for pk in stuck:
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=pk)
            lost = lost_reason(match, now) if match.status == Status.RUNNING else None
            if lost is None:
                continue
            _note_attempt(match, lost, now)
            if match.attempts >= match.max_attempts:
                _give_up(match)
            else:
                _requeue(match)
    return stuck


def redispatch_lost_matches(now: datetime | None = None) -> list[int]:
    """Queue again the matches the broker lost (:func:`dispatch.lost_by_broker`: queued
    before a Redis restarted without its data, say), once they have waited
    ``REDISPATCH_SECONDS``. A task that was only delayed meets a claimed match: nothing
    is played twice. Returns their ids."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.REDISPATCH_SECONDS)
    waiting = list(
        Match.objects.filter(status=Status.QUEUED, queued_at__lt=cutoff).only(
            "pk", "queued_at", "rules", "game_seconds", "person_id", "priority"
        )
    )
    lost = dispatch.lost_by_broker([m.queued_at or cutoff for m in waiting], MATCH_QUEUE)
    ids = []
    for match, is_lost in zip(waiting, lost, strict=True):
        if not is_lost:
            continue
        with transaction.atomic():
            if Match.objects.filter(pk=match.pk, status=Status.QUEUED).update(queued_at=now):
                dispatch.on_commit_play(match.pk, budget_of(match), match.priority)
                ids.append(match.pk)
    if ids:
        log.warning("re-queued %d matches the broker lost: %s", len(ids), ids[:20])
    return ids


def lost_reason(match: Match, now: datetime) -> str | None:
    """Why a running match's worker counts as lost (None while it is not): past its
    deadline, no heartbeat for ``MATCH_HEARTBEAT_TIMEOUT`` (a vanished machine), or its
    process on this machine gone."""
    if match.deadline is not None and match.deadline < now:
        return "lost: its worker did not finish by the deadline"
    silent = timedelta(seconds=settings.MATCH_HEARTBEAT_TIMEOUT)
    if match.heartbeat_at is not None and match.heartbeat_at < now - silent:
        return f"lost: no heartbeat from its worker for {settings.MATCH_HEARTBEAT_TIMEOUT:g} s"
    if _dead_here(match.worker):
        return "lost: its worker process is gone"
    return None


def _dead_here(worker: str) -> bool:
    """True if ``worker`` names a process of this machine that is gone (exited, a
    zombie, or its pid now belongs to another process)."""
    host, _, rest = worker.partition(":")
    pid, _, start = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit() or not start:
        return False
    return _start_time(int(pid)) != start


def _requeue(match: Match) -> None:
    match.status = Status.QUEUED
    match.deadline = None
    match.live = None
    match.queued_at = timezone.now()
    match.save()
    dispatch.on_commit_play(match.pk, budget_of(match), match.priority)


def _give_up(match: Match) -> None:
    match.status = Status.FAILED
    match.finished_at = timezone.now()
    match.live = None
    match.save()
    match_done.send(Match, match=match)


def _note_attempt(match: Match, outcome: str, now: datetime) -> None:
    match.attempt_log = [
        *match.attempt_log,
        {
            "attempt": match.attempts,
            "worker": match.worker,
            "started": match.started_at.isoformat() if match.started_at else None,
            "ended": now.isoformat(),
            "outcome": outcome[:500],
        },
    ]


INTERRUPTED = "interrupted: the platform was stopped (not counted as an attempt)"


def release_interrupted(match_id: int, worker: str) -> bool:
    """Put back a match that ``worker`` held when the platform was stopped (Ctrl-C, or a
    whole process tree killed): ``queued`` again, the attempt not counted, as a stop of
    the platform is nobody's fault. False if ``worker`` no longer holds it."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Status.RUNNING or match.worker != worker[:200]:
            return False
        _note_attempt(match, INTERRUPTED, timezone.now())
        match.attempts = max(0, match.attempts - 1)
        _requeue(match)
    return True


def release_matches_of_dead_workers() -> list[int]:
    """Matches left ``running`` by worker processes of this machine that are gone (a
    process tree killed with SIGKILL): put back as :func:`release_interrupted`. Only
    for the embedded default's start-up, which holds its data folder alone."""
    running = Match.objects.filter(status=Status.RUNNING).values_list("pk", "worker")
    return [pk for pk, worker in running if _dead_here(worker) and release_interrupted(pk, worker)]
