"""The bridge's player: our bot protocol outside, a catanatron player inside.

A bot file (``alphabeta.py``, ``value_function.py``) subclasses :class:`BridgePlayer`
with the catanatron player it runs. Each decision: a determinisation of the observation
(``engine.determinize``: the hidden cards sampled consistently with what the seat saw),
its mirror in catanatron's engine (``mirror.py``), the catanatron player's choice,
mapped back to one of our actions. Our engine stays the referee.

Declined, because catanatron cannot express them here: every domestic trade offered to
the seat is rejected, and the seat never offers one (our engine asks it only for answers,
which catanatron's players never give for offers they did not make themselves). A choice
our rules refuse (none seen so far) is replaced by a legal action of the same kind, else
the first legal one, and said on stderr (the bot's log).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from mirror import board_map, mirror, to_ours

from bots import Action, Observation, Player
from engine import Phase
from engine import actions as A
from engine.determinize import determinize

THINKING_SHARE = 0.5
"""The share of the decision's clock given to catanatron's own search deadline."""


class BridgePlayer(Player):
    """A catanatron player (``make``) seated in our game."""

    name = "catanatron-bridge"

    def make(self) -> Any:
        """A fresh catanatron player (its color is set by the mirror)."""
        raise NotImplementedError

    def set_deadline(self, seconds: float) -> None:
        """Give catanatron's search ``seconds`` of wall clock (no-op if it has none)."""

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if observation.phase is Phase.TRADE_RESPONSE:
            return A.REJECT if A.REJECT in legal else legal[0]
        if observation.phase is Phase.TRADE_CONFIRM:
            return A.CANCEL
        started = time.perf_counter()
        hidden = determinize(observation, self.rng).state
        player = self.make()
        game = mirror(observation, hidden, player, self.rng.getrandbits(31))
        if observation.clock is not None:
            spent = time.perf_counter() - started
            self.set_deadline(max(0.01, THINKING_SHARE * observation.clock.decision - spent))
        choice = to_ours(player.decide(game, game.playable_actions), board_map(observation.board))
        if choice in legal:
            return choice
        same = [a for a in legal if type(a) is type(choice)]
        fallback = same[0] if same else legal[0]
        print(f"bridge: catanatron chose {choice}, not legal here; played {fallback}",
              file=sys.stderr)  # fmt: skip
        return fallback
