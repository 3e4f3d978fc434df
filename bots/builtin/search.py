"""``search``: the ``heuristic`` policy, improved by search where it matters most.

Every decision starts from the default policy's choice (policy improvement): the
heuristic's rules with a retuned goal (:mod:`bots.builtin.search_policy`). Set-up
placements: each of the heuristic's top options is followed by a heuristic playout of
the rest of the set-up, scored by a logistic win model fitted on self-play
(:mod:`bots.builtin.search_setup`). Domestic trade: offers, counters and partners are
chosen by sampling the opponents' hidden hands (consistent with offers they turned
down) and predicting their answers (:mod:`bots.builtin.search_trade`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Final

from bots.builtin.deadline import Deadline
from bots.builtin.heuristic import HeuristicPlayer
from bots.builtin.heuristic_board import board_info, spot_value
from bots.builtin.search_policy import SearchPlan, SearchPolicy
from bots.builtin.search_setup import win_logits
from bots.builtin.search_trade import best_offer, best_response, pick_partner
from bots.player import Player
from engine import Action, Observation
from engine import actions as A
from engine.determinize import determinize
from engine.phases import Phase
from engine.types import Bag

DEFAULT_BUDGET: Final = 0.1
"""Seconds per decision when the observation carries no clock."""
SAFETY: Final = 0.7
"""Share of the decision budget actually used (the rest absorbs timing noise)."""
MARGIN: Final = 0.003
"""Seconds kept back from every budget."""
SETUP_OPTIONS: Final = 20
"""Set-up settlement spots compared (the heuristic's best by its own spot value)."""
SETUP_PRIOR: Final = 0.0
"""Log-odds margin an alternative set-up move needs over the heuristic's choice."""
TRADE_SAMPLES: Final = 8
"""Determinizations used to predict answers to our domestic offers."""
YIELDING: Final = (A.MaritimeTrade, A.ProposeTrade, A.EndTurn, A.BuyDevCard)
"""Heuristic main-phase choices that a good domestic offer should come before."""


class SearchPlayer(Player):
    name = "search"
    max_samples: int | None = None
    """Cap on determinizations per decision (None: as many as the budget allows); a cap
    with an ample clock makes decisions reproducible from the seed."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.base: HeuristicPlayer = SearchPolicy(self.rng)
        self.clock: Callable[[], float] = time.perf_counter
        """What the decision budget is read against (tests substitute a scripted clock)."""
        self.pending: tuple[int, tuple[int, ...], A.ProposeTrade] | None = None
        """Our last offer (turn, everyone's card counts then, offer) until answered."""
        self.turned_down: list[tuple[int, tuple[int, ...], Bag, Bag]] = []

    def act(self, observation: Observation) -> Action:
        start = self.clock()
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        clock = observation.clock
        budget = DEFAULT_BUDGET if clock is None else clock.decision
        self.deadline = Deadline(start + max(0.0, budget * SAFETY - MARGIN), self.clock)
        phase = observation.phase
        if phase is Phase.TRADE_CONFIRM:
            self.pending = None
            plan = SearchPlan(observation)
            confirms = [a for a in legal if isinstance(a, A.ConfirmTrade)]
            return pick_partner(observation, plan.goal[1], confirms)
        default = self.base.act(observation)
        samples = TRADE_SAMPLES if self.max_samples is None else self.max_samples
        if phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD):
            return self._setup(observation, default)
        if phase is Phase.TRADE_RESPONSE and observation.offer is not None:
            plan = SearchPlan(observation)
            accept = default == A.ACCEPT
            return best_response(
                observation, plan.goal[1], accept, self.rng, self.deadline, samples
            )
        if phase is Phase.MAIN and isinstance(default, YIELDING):
            plan = SearchPlan(observation)
            rejected = self._rejected(observation)
            goal = plan.goal[1]
            offer = best_offer(observation, goal, self.rng, self.deadline, samples, rejected)
            if offer is not None:
                self.pending = (observation.turn, observation.resource_counts, offer)
                return offer
        return default

    def _rejected(self, obs: Observation) -> list[tuple[Bag, Bag]]:
        """Our offers that everyone turned down since the hands last changed."""
        if self.pending is not None:
            turn, counts, offer = self.pending
            self.pending = None
            if turn == obs.turn and counts == obs.resource_counts:
                self.turned_down.append((turn, counts, offer.give, offer.get))
        self.turned_down = [
            t for t in self.turned_down if t[0] == obs.turn and t[1] == obs.resource_counts
        ]
        return [(give, get) for _, _, give, get in self.turned_down]

    # --- set-up --------------------------------------------------------------------------

    def _setup(self, obs: Observation, default: Action) -> Action:
        """Play the rest of the set-up with the heuristic for each of the heuristic's top
        options and keep the one the fitted model likes best (the default on ties)."""
        me = obs.seat
        assert me is not None
        legal = list(obs.legal_actions)
        if obs.phase is Phase.SETUP_SETTLEMENT:
            info = board_info(obs.board)
            plan = SearchPlan(obs)
            legal.sort(key=lambda a: -spot_value(info, a.node, plan.prod))  # type: ignore[attr-defined]
            legal = legal[:SETUP_OPTIONS]
        if default in legal:
            legal.remove(default)
        legal.insert(0, default)
        sample = determinize(obs, self.rng)
        best, best_value = default, float("-inf")
        for i, action in enumerate(legal):
            if i and self.deadline.passed():
                break
            game = sample.copy()
            game.apply_unchecked(action)
            while game.state.phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD):
                seat = game.state.decider
                game.apply_unchecked(self.base.act(game.observe(seat)))
            logits = win_logits(game.state)
            value = logits[me] - math.log(sum(math.exp(x) for x in logits))
            if not i:
                value += SETUP_PRIOR
            if value > best_value:
                best, best_value = action, value
        return best
