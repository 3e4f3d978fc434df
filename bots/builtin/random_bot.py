"""``random``: uniformly random legal actions, with trade offers kept rare."""

from __future__ import annotations

from bots.player import Player
from engine import Action, Observation
from engine.actions import ProposeTrade

OFFER_PROBABILITY = 0.05


class RandomPlayer(Player):
    name = "random"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        others = [a for a in legal if not isinstance(a, ProposeTrade)]
        if len(others) < len(legal) and self.rng.random() < OFFER_PROBABILITY:
            offers = [a for a in legal if isinstance(a, ProposeTrade)]
            return self.rng.choice(offers)
        return self.rng.choice(others)
