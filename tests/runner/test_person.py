"""A person's seat (:mod:`arena_runner.person`) in whole games: the person's answers are
played, a decision whose clock runs out is the autopilot's, and a person away too long
is forfeited to the autopilot; the game always finishes."""

from __future__ import annotations

import random
import time

from arena_runner import InProcessDriver, MatchResult, SeatDriver, play_match
from arena_runner.match import default_autopilot
from arena_runner.person import PersonDriver
from arena_runner.timeouts import TimeoutClock
from bots.builtin.random_bot import RandomPlayer
from engine import Action, Observation, RulesConfig
from engine.replay import verify

CONFIG = RulesConfig(players=3)


class ScriptedMailbox:
    """A person who answers each posted decision with a random legal action (or, with
    ``answers`` False, never answers), seen ``seen_ago`` seconds ago."""

    def __init__(self, answers: bool = True, seen_ago: float = 0.0) -> None:
        self.answers = answers
        self.seen_ago = seen_ago
        self.rng = random.Random(5)
        self.posted: dict[int, Observation] = {}
        self.closed: list[int] = []

    def post(self, step: int, observation: Observation, deadline: float) -> None:
        assert deadline > time.time() - 1
        self.posted[step] = observation

    def answer(self, step: int) -> Action | None:
        if not self.answers:
            return None
        return self.rng.choice(self.posted[step].legal_actions)

    def last_seen(self) -> float:
        return time.time() - self.seen_ago

    def close(self, step: int) -> None:
        self.closed.append(step)


def play(
    mailbox: ScriptedMailbox, decision: float = 60.0, away: float = 60.0
) -> tuple[MatchResult, PersonDriver]:
    person = PersonDriver(
        mailbox, default_autopilot(), decision_seconds=decision, away_seconds=away
    )
    drivers: list[SeatDriver] = [
        person,
        InProcessDriver(RandomPlayer),
        InProcessDriver(RandomPlayer),
    ]
    result = play_match(CONFIG, 21, drivers, one_cpu=False, decision_timeout=0.5)
    verify(result.replay)
    return result, person


def test_the_persons_answers_are_played() -> None:
    mailbox = ScriptedMailbox()
    result, person = play(mailbox)
    assert not result.forfeits and not result.faults[0]
    assert person.timeouts == 0
    assert len(mailbox.posted) == result.stats[0].decisions > 10
    assert mailbox.closed == sorted(mailbox.posted)
    # each posted decision was the person's: its observation is seat 0's own
    assert {o.seat for o in mailbox.posted.values()} == {0}


def test_a_decision_whose_clock_runs_out_is_the_autopilots() -> None:
    mailbox = ScriptedMailbox(answers=False)
    result, person = play(mailbox, decision=0.05)
    assert not result.forfeits and not result.faults[0]  # never a strike
    assert person.timeouts == result.stats[0].decisions > 10
    assert "autopilot played" in person.take_log()


def test_a_person_away_too_long_is_forfeited_to_the_autopilot() -> None:
    result, _ = play(ScriptedMailbox(answers=False, seen_ago=100.0), away=30.0)
    (forfeit,) = result.forfeits
    assert forfeit.seat == 0 and "away" in forfeit.reason
    assert result.faults[0][0].clock is TimeoutClock.AWAY
    assert result.outcome.turns > 0


def test_control_a_person_seen_lately_is_not_forfeited() -> None:
    result, _ = play(ScriptedMailbox(answers=False, seen_ago=1.0), decision=0.05, away=30.0)
    assert not result.forfeits
