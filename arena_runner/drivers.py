"""How the match talks to a seat: the :class:`SeatDriver` protocol and the in-process
driver for trusted built-in bots."""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable
from typing import Protocol

from arena_runner.result import Fault, FaultKind
from bots.player import Player
from engine import Action, BoardLayout, Clock, Observation, Outcome, RulesConfig
from engine.seat_view import SeatView


class SeatDriver(Protocol):
    """One bot in one seat. ``start``/``end`` return a :class:`Fault` or None; ``act``
    returns the bot's (unchecked) action or a fault. A driver may play several games in
    a row (``start`` ... ``end``, ``start`` ...) and is released with ``close``."""

    name: str
    last_cpu: float
    """CPU seconds the last ``act`` cost the bot (charged to its time bank)."""
    last_waited: float
    """Wall-clock seconds of the last ``act`` the bot spent runnable but waiting for a
    CPU (the machine's load): not charged to it."""
    last_offturn_cpu: float
    """CPU seconds of its own the bot used between its previous decision and the last
    ``act`` (while frozen, or anywhere when not frozen off turn; not the moments between
    its reply and its freeze), charged to its bank."""

    @property
    def alive(self) -> bool:
        """False once the bot can no longer be asked (its process is gone)."""
        ...

    def start(
        self,
        seat: int,
        config: RulesConfig,
        layout: BoardLayout,
        seed: int,
        observation: Observation,
    ) -> Fault | None: ...

    def act(self, observation: Observation, clock: Clock) -> Action | Fault: ...

    def end(self, observation: Observation, outcome: Outcome) -> Fault | None: ...

    def pause(self) -> None:
        """Another seat decides now: stop this bot from running (freeze it)."""
        ...

    def pin(self, cpu: int) -> None:
        """Run the bot on this CPU only (the match's; see :mod:`arena_runner.affinity`)."""
        ...

    def take_log(self) -> str:
        """What the bot wrote since the last call (capped)."""
        ...

    def close(self) -> None: ...


PlayerFactory = Callable[[random.Random], Player]


class InProcessDriver:
    """Runs a trusted player in this process (no timeout can be enforced; its thread CPU
    time is still charged to its bank).

    ``factory`` builds a fresh player per game from the seeded generator (a
    :class:`Player` subclass will do), exactly as the bot process does."""

    def __init__(self, factory: PlayerFactory, name: str = "") -> None:
        self.factory = factory
        self.name = name or str(getattr(factory, "name", "") or getattr(factory, "__name__", ""))
        self.player: Player | None = None
        self.view: SeatView | None = None
        """The seat's observations as a sandboxed bot would decode them (no live state)."""
        self.seat = -1
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
        self.seat, self.player = seat, None
        self.view = SeatView(config, layout)
        try:
            seen = self.view(observation)
            player = self.factory(random.Random(seed))
            player.on_game_start(seat, seen)
        except Exception as exc:
            return self._fault(observation, "starting the bot", exc)
        self.player = player
        return None

    def act(self, observation: Observation, clock: Clock) -> Action | Fault:
        if self.player is None or self.view is None:
            return Fault(self.seat, observation.step, FaultKind.ERROR, "the bot did not start")
        seen = self.view(observation.with_clock(clock))
        began = time.thread_time()
        try:
            action = self.player.act(seen)
        except Exception as exc:
            return self._fault(observation, "act()", exc)
        finally:
            self.last_cpu = time.thread_time() - began
        if not isinstance(action, Action):
            message = f"act() returned {action!r:.200} ({type(action).__name__}), not an Action"
            return Fault(self.seat, observation.step, FaultKind.ERROR, message)
        return action

    def end(self, observation: Observation, outcome: Outcome) -> Fault | None:
        player, self.player = self.player, None
        if player is None or self.view is None:
            return None
        try:
            player.on_game_end(self.view(observation), outcome)
        except Exception as exc:
            return self._fault(observation, "on_game_end()", exc)
        return None

    def pause(self) -> None:
        pass

    def pin(self, cpu: int) -> None:
        pass

    def take_log(self) -> str:
        return ""

    def close(self) -> None:
        self.player = self.view = None

    def _fault(self, observation: Observation, doing: str, exc: Exception) -> Fault:
        return Fault(
            self.seat,
            observation.step,
            FaultKind.ERROR,
            f"{doing} raised {type(exc).__name__}: {exc}",
            traceback.format_exc(),
        )
