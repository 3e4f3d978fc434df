"""A bot that trades with the other players to finish a settlement.

Domestic trade has three steps:

1. On your turn you propose an offer: ``ProposeTrade(give, get)``. ``give`` and ``get``
   are resource bags: 5 counts in the order brick, lumber, wool, grain, ore. The legal
   actions list the one-for-one offers; any other offer of cards you hold is legal too.
2. Every other player answers: ``AcceptTrade()``, ``RejectTrade()`` (or a counter-offer).
3. You pick a partner with ``ConfirmTrade(seat)`` or call it off with ``CancelTrade()``.

The rules option ``domestic_trade`` may be off: then no offer appears in the legal list.
"""

from __future__ import annotations

from bots import Action, Observation, Player
from engine import actions as A
from engine.phases import Phase
from engine.types import COST_SETTLEMENT

Bag = tuple[int, ...]


def lacking(hand: Bag) -> list[int]:
    """How many of each resource we still need for a settlement."""
    return [max(0, need - have) for need, have in zip(COST_SETTLEMENT, hand, strict=True)]


class Trader(Player):
    name = "trader"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        hand = observation.hand
        assert hand is not None  # a seat always sees its own hand

        if observation.phase is Phase.TRADE_RESPONSE:
            return self.answer(observation, hand)
        if observation.phase is Phase.TRADE_CONFIRM:
            # Someone accepted: take the first partner listed (cancel is always last).
            return legal[0]

        # Build a settlement or a city whenever possible (any of the legal places).
        builds = [a for a in legal if isinstance(a, (A.BuildSettlement, A.BuildCity))]
        if builds:
            return self.rng.choice(builds)

        # One card short of a settlement? Offer a card we do not need for it, once a turn.
        lack = lacking(hand)
        can_offer = any(isinstance(a, A.ProposeTrade) for a in legal)
        if can_offer and sum(lack) == 1 and observation.offers_made == 0:
            spare = [have - need for need, have in zip(COST_SETTLEMENT, hand, strict=True)]
            give = max(range(5), key=lambda r: spare[r])
            if spare[give] > 0:
                want = lack.index(1)
                return A.ProposeTrade(one(give), one(want))

        # Otherwise behave like the first bot: roads, development cards, bank trades.
        for kind in (A.BuildRoad, A.BuyDevCard, A.PlayKnight, A.MaritimeTrade):
            options = [a for a in legal if isinstance(a, kind)]
            if options:
                return self.rng.choice(options)
        for preferred in (A.ROLL, A.END_TURN):
            if preferred in legal:
                return preferred
        return self.rng.choice(legal)

    @staticmethod
    def answer(observation: Observation, hand: Bag) -> Action:
        """Accept an offer when it brings us closer to a settlement."""
        assert observation.offer is not None
        they_give, they_want = observation.offer  # from the proposer's side
        after = tuple(h + g - w for h, g, w in zip(hand, they_give, they_want, strict=True))
        helps = sum(lacking(after)) < sum(lacking(hand))
        if helps and A.ACCEPT in observation.legal_actions:
            return A.ACCEPT
        return A.REJECT


def one(resource: int) -> Bag:
    """A bag holding a single card of ``resource``."""
    return tuple(1 if r == resource else 0 for r in range(5))
