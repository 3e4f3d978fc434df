"""``heuristic``: a sound rule-based player (no search), deciding from its observation only.

Set-up: settle where production pips, resource diversity, scarcity and harbors add up
best; point roads at the next good spot. Main phase: city > settlement > development
card > road toward a target spot (or for Longest Road when close); bank trades complete
the build it is saving for; the robber hurts the leader. Plans live in ``heuristic_plan``.
"""

from __future__ import annotations

from typing import ClassVar

from bots.builtin.heuristic_plan import Plan, missing
from bots.player import Player
from engine import Action, Observation, Phase
from engine import actions as A
from engine.types import COST_DEV_CARD


class HeuristicPlayer(Player):
    """Rule-based player. With ``strict`` set, internal errors raise (for tests) instead of
    falling back to a safe legal action."""

    name = "heuristic"
    strict = False
    plan: ClassVar[type[Plan]] = Plan
    """How an observation is analysed (a subclass may retune it)."""

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        try:
            action = self._decide(self.plan(observation))
        except Exception:
            if self.strict:
                raise
            action = None
        if action is not None and _is_legal(action, observation):
            return action
        if self.strict:
            raise AssertionError(f"{self.name} chose an illegal action: {action}")
        return _fallback(legal)

    # --- dispatch ----------------------------------------------------------------------

    def _decide(self, p: Plan) -> Action | None:
        phase = p.obs.phase
        if phase is Phase.SETUP_SETTLEMENT:
            return p.best_settlement(p.of_type(A.BuildSettlement))
        if phase in (Phase.SETUP_ROAD, Phase.ROAD_BUILDING):
            return p.best_road(p.of_type(A.BuildRoad))
        if phase is Phase.ROLL:
            return p.knight_now() or A.ROLL
        if phase is Phase.DISCARD:
            return p.discard()
        if phase is Phase.MOVE_ROBBER:
            return p.robber()
        if phase is Phase.TRADE_RESPONSE:
            return A.ACCEPT if p.accept_offer() else A.REJECT
        if phase is Phase.TRADE_CONFIRM:
            return p.confirm()
        if phase is Phase.MAIN:
            return self._main(p)
        return None

    def _main(self, p: Plan) -> Action | None:
        obs, hand = p.obs, p.hand
        cities = p.of_type(A.BuildCity)
        if cities:
            return max(cities, key=lambda a: p.city_value(a.node))
        settle = p.best_settlement(p.of_type(A.BuildSettlement))
        if settle is not None:
            return settle
        if not obs.dev_played:
            card = p.dev_play()
            if card is not None:
                return card
        kind, cost = p.goal
        if not missing(cost, hand):
            if kind == "road":
                road = p.best_road(p.of_type(A.BuildRoad))
                if road is not None:
                    return road
            if kind == "dev" and A.BUY_DEV in obs.legal_actions:
                return A.BUY_DEV
        trade = p.bank_trade_toward(cost)
        if trade is not None:
            return trade
        offer = p.domestic_offer(self.rng)
        if offer is not None:
            return offer
        if A.BUY_DEV in obs.legal_actions:
            after = [h - c for h, c in zip(hand, COST_DEV_CARD, strict=True)]
            if missing(cost, after) <= missing(cost, hand) + 1 or sum(hand) >= 8:
                return A.BUY_DEV
        extra = p.extra_road(cost)
        if extra is not None:
            return extra
        if sum(hand) > obs.config.discard_limit:
            dump = p.dump_trade(cost)
            if dump is not None:
                return dump
        return A.END_TURN


def _is_legal(action: Action, obs: Observation) -> bool:
    if action in obs.legal_actions:
        return True
    if isinstance(action, A.ProposeTrade) and obs.hand is not None:
        return (
            any(isinstance(a, A.ProposeTrade) for a in obs.legal_actions)
            and any(action.give)
            and any(action.get)
            and all(obs.hand[r] >= action.give[r] for r in range(5))
            and not any(action.give[r] and action.get[r] for r in range(5))
        )
    return False


def _fallback(legal: tuple[Action, ...]) -> Action:
    """A safe legal action: roll, end the turn, reject, cancel, else the first listed."""
    for safe in (A.ROLL, A.END_TURN, A.REJECT, A.CANCEL):
        if safe in legal:
            return safe
    return legal[0]
