"""A person's seat: a :class:`~arena_runner.drivers.SeatDriver` that publishes the
decision at hand (the seat's own observation, its legal actions, a deadline) through a
:class:`Mailbox` and waits for the person's answer.

The person has ``decision_seconds`` of wall clock per decision (nothing is charged to
the seat's time bank: a person's thinking is not a bot's CPU); when it runs out the
autopilot plays that decision and the person plays on. A person not seen for
``away_seconds`` (the page stopped asking) is forfeited to the autopilot, which plays
the rest of the game. The match checks the person's action with ``Game.check`` like any
bot's reply; the mailbox (the platform's database) refuses forged answers before that.
"""

from __future__ import annotations

import time
from typing import Protocol

from arena_runner.drivers import InProcessDriver, PlayerFactory
from arena_runner.result import Fault, FaultKind
from arena_runner.timeouts import TimeoutClock, person_away
from engine import Action, BoardLayout, Clock, Observation, Outcome, RulesConfig

PERSON_GAME_SECONDS = 4 * 3600.0
"""A person's wall-clock budget for a whole game (then the autopilot finishes it)."""
POLL_SECONDS = 0.2
"""How often the seat looks for the person's answer."""


class Mailbox(Protocol):
    """Where a person's seat meets its person (the platform: a database row)."""

    def post(self, step: int, observation: Observation, deadline: float) -> None:
        """Publish the decision at ``step`` (``observation`` holds the legal actions);
        ``deadline``: ``time.time()`` when the autopilot plays it."""
        ...

    def answer(self, step: int) -> Action | None:
        """The person's action for ``step``, once given (already checked as one of the
        legal actions posted for it); None while there is none."""
        ...

    def last_seen(self) -> float:
        """``time.time()`` of the person's last sign of life (as of the last
        :meth:`answer`, which the seat always asks first)."""
        ...

    def close(self, step: int) -> None:
        """The decision at ``step`` is taken (by the person or the autopilot)."""
        ...


class PersonDriver:
    """The seat of a person who answers through ``mailbox``; ``autopilot`` plays the
    decisions the person lets run out (and, after a forfeit, the match's own autopilot
    plays on)."""

    def __init__(
        self,
        mailbox: Mailbox,
        autopilot: PlayerFactory,
        *,
        decision_seconds: float,
        away_seconds: float,
        game_seconds: float = PERSON_GAME_SECONDS,
        name: str = "person",
    ) -> None:
        self.mailbox = mailbox
        self.pilot = InProcessDriver(autopilot, "autopilot")
        self.decision_seconds = decision_seconds
        self.away_seconds = away_seconds
        self.game_seconds = game_seconds
        self.name = name
        self.ask_forced = True
        """The person is asked even when one action is legal (they roll the dice)."""
        self.seat = -1
        self.timeouts = 0
        """Decisions the autopilot played because the person's clock ran out."""
        self.last_cpu = 0.0
        self.last_waited = 0.0
        self.last_offturn_cpu = 0.0

    @property
    def alive(self) -> bool:
        return True

    def start(
        self,
        seat: int,
        config: RulesConfig,
        layout: BoardLayout,
        seed: int,
        observation: Observation,
    ) -> Fault | None:
        self.seat = seat
        return self.pilot.start(seat, config, layout, seed, observation)

    def act(self, observation: Observation, clock: Clock) -> Action | Fault:
        began = time.perf_counter()
        try:
            return self._wait(observation, clock)
        finally:
            self.last_waited = time.perf_counter() - began  # never charged to the bank

    def _wait(self, observation: Observation, clock: Clock) -> Action | Fault:
        step = observation.step
        seconds = self.decision_seconds
        if clock.game is not None:  # what is left of the person's budget for the game
            seconds = min(seconds, max(clock.game, 0.0))
        deadline = time.time() + seconds
        self.mailbox.post(step, observation, deadline)
        try:
            while True:
                action = self.mailbox.answer(step)
                if action is not None:
                    return action
                now = time.time()
                if now - self.mailbox.last_seen() > self.away_seconds:
                    message = person_away(self.away_seconds)
                    return Fault(
                        self.seat, step, FaultKind.TIMEOUT, message, clock=TimeoutClock.AWAY
                    )
                if now >= deadline:
                    self.timeouts += 1
                    return self.pilot.act(observation, clock)
                time.sleep(min(POLL_SECONDS, deadline - now))
        finally:
            self.mailbox.close(step)

    def end(self, observation: Observation, outcome: Outcome) -> Fault | None:
        return self.pilot.end(observation, outcome)

    def pause(self) -> None:
        pass

    def pin(self, cpu: int) -> None:
        pass

    def take_log(self) -> str:
        if not self.timeouts:
            return ""
        return f"the autopilot played {self.timeouts} decision(s) whose clock ran out\n"

    def close(self) -> None:
        self.pilot.close()
