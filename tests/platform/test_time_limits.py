"""A match task's time limits add up: its soft limit (and its claim's deadline) cover
every seat's start-up and end plus its whole wall-clock budget for the game, the hard
limit comes after the soft one, and four seats that each use every allowance finish as
an ordinary game under a real Celery worker (never voided by the soft limit)."""

from __future__ import annotations

from typing import Any

import pytest

from arena_runner.sandbox.limits import Limits
from arena_runner.subprocess_driver import DEFAULT_END_TIMEOUT, EXIT_GRACE
from catan_arena.accounts.models import User
from catan_arena.core.dispatch import task_limits
from catan_arena.matches.models import Match
from catan_arena.matches.services import (
    TASK_MARGIN,
    MatchLimits,
    claim_match,
    create_match,
    match_budget,
)
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version
from tests.support.celery_worker import CeleryWorker, wait_for

pytestmark = pytest.mark.timeout(600)  # longer than the suite's default (pyproject.toml)

STALLING = MatchLimits(decision_seconds=0.05, time_bank_seconds=0.2, game_seconds=2.0)
START_STALL = 0.9 * Limits().import_seconds
"""Seconds each stalling seat sleeps in on_game_start: most of its start-up allowance."""
RESERVE = 0.5
"""Seconds of its game budget a staller keeps for the round trips of its last decisions."""

STALLER = f"""
import time
from bots import Player



class Staller(Player):
    \"\"\"Uses every allowance: most of the start-up, then 90% of each decision's budget
    until all but {RESERVE} s of the game's wall clock is spent.\"\"\"

    def on_game_start(self, seat, observation):
        time.sleep({START_STALL})

    def act(self, observation):
        clock = observation.clock
        time.sleep(min(0.9 * clock.decision, max(0.0, clock.game - {RESERVE})))
        legal = observation.legal_actions
        plain = [a for a in legal if type(a).__name__ != "ProposeTrade"] or legal
        return self.rng.choice(plain)
""".encode()


def worst_case(players: int, game_seconds: float, limits: Limits) -> float:
    """The longest a game's bots may hold it, from the runner's own limits: each seat's
    sandbox hello and import + on_game_start, its game budget, its end and exit."""
    per_seat = limits.spawn_seconds + limits.import_seconds + game_seconds
    return players * (per_seat + DEFAULT_END_TIMEOUT + 2 * EXIT_GRACE)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize(
    "limits",
    [MatchLimits(1.0, 10.0), STALLING, MatchLimits(0.3, 1.0), MatchLimits(5.0, 0.0, 12.0)],
    ids=["ladder", "stalling", "fast", "12s-budget"],
)
def test_the_task_limits_exceed_the_worst_case(players: int, limits: MatchLimits) -> None:
    bound = worst_case(players, limits.per_seat, Limits())
    soft, hard = task_limits(match_budget(players, limits.per_seat))
    assert soft >= bound + TASK_MARGIN  # the engine's share on top of the bots' worst case
    assert hard > soft


@pytest.mark.django_db
def test_the_claim_s_deadline_is_past_the_soft_limit(author: User) -> None:
    versions = _stallers(author)
    match = create_match(versions, limits=STALLING)
    assert claim_match(match.pk, "test-worker") is not None
    match.refresh_from_db()
    assert match.deadline is not None and match.started_at is not None
    soft, _ = task_limits(match_budget(4, STALLING.per_seat))
    assert (match.deadline - match.started_at).total_seconds() >= soft


@pytest.mark.django_db(transaction=True)
def test_four_seats_using_every_allowance_finish_as_an_ordinary_game(
    server_mode: dict[str, str], workers: list[Any], author: User
) -> None:
    match = create_match(_stallers(author), limits=STALLING)
    workers.append(CeleryWorker(server_mode, concurrency=1))
    done = (Match.Status.FINISHED, Match.Status.FAILED)

    def ended() -> bool:
        match.refresh_from_db()
        return match.status in done

    wait_for(ended, 400, "the stalling match to end", workers[0])
    assert match.status == Match.Status.FINISHED, match.attempt_log
    assert match.attempts == 1, match.attempt_log  # never voided by the soft limit
    seats = list(match.seats.order_by("seat"))
    assert all(seat.faults == [] and seat.forfeit is None for seat in seats), [
        (s.faults, s.forfeit) for s in seats
    ]
    for seat in seats:  # each used its game budget (all but the reserve), asleep
        assert seat.mean_decision_ms is not None
        spent = seat.decisions * seat.mean_decision_ms / 1000
        assert spent > STALLING.per_seat - RESERVE, (seat.seat, spent)
    # the positive control: the old limit (the seats' game budgets + the margin) was
    # shorter than this game, whose start-ups alone sleep 4 x START_STALL seconds
    assert match.started_at is not None and match.finished_at is not None
    took = (match.finished_at - match.started_at).total_seconds()
    assert took > 4 * STALLING.per_seat + TASK_MARGIN > 0


def _stallers(author: User) -> list[BotVersion]:
    versions = []
    for i in range(4):
        source = STALLER + f"# seat {i}\n".encode()
        version = upload_version(author, f"staller-{i}", "bot.py", source).version
        version.status = BotVersion.Status.ACTIVE
        version.save(update_fields=["status"])
        versions.append(version)
    return versions
