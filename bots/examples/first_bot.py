"""The five-minute bot: build whatever it can, otherwise end the turn.

Run it against the built-in random bot::

    catan-arena play bots/examples/first_bot.py random random random

A bot file defines exactly one subclass of ``Player`` with one method, ``act``. The
platform calls ``act`` whenever your seat must decide, passing an ``Observation``: what
your seat may see (your cards, the public board, everyone's card counts...). Its
``legal_actions`` lists every move you may make right now. Return one of them.
"""

from __future__ import annotations

from bots import Action, Observation, Player
from engine import actions as A

# Actions we like, most wanted first. ``isinstance`` checks work because every action is
# a small class from ``engine.actions``.
PREFERENCE: tuple[type[Action], ...] = (
    A.BuildCity,
    A.BuildSettlement,
    A.BuildRoad,
    A.BuyDevCard,
    A.PlayKnight,  # development cards are only useful once played
    A.PlayYearOfPlenty,
    A.PlayMonopoly,
    A.PlayRoadBuilding,
    A.MaritimeTrade,  # swap 4 (or 3, or 2 at a harbor) cards of a kind for 1 card
)


class FirstBot(Player):
    name = "first-bot"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions

        # 1. Build the most valuable thing we can afford. The list of legal actions only
        #    holds builds we can pay for, at places where the rules allow them. Where
        #    several places are possible, pick one at random (``self.rng`` is a seeded
        #    generator, so games replay exactly: avoid the global ``random``).
        for kind in PREFERENCE:
            options = [action for action in legal if isinstance(action, kind)]
            if options:
                return self.rng.choice(options)

        # 2. Nothing to build: roll the dice at the start of a turn, end it otherwise.
        if A.ROLL in legal:
            return A.ROLL
        if A.END_TURN in legal:
            return A.END_TURN

        # 3. Every other decision (set-up placements, discarding after a 7, moving the
        #    robber, answering a trade offer): pick any legal action.
        return self.rng.choice(legal)
