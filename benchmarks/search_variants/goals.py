"""Tuning variant: at the 1 s clock's horizon, main-phase decisions whose default saves or
spends compare goals rather than single actions: for each build the seat could save for
(city, settlement, road, development card), the default policy forced to that goal plays
this decision and the seat's own turns of the rollout (four turns past the current one),
the other seats the default policy; the goal whose rollouts score best by more than their
noise is played.

Against :mod:`horizon4` (seeds 710000-710599, 24 samples a decision): 361/600 = 60.2%
against 347/600 = 57.8% (+2.3 points; the two runs' 95% intervals overlap widely), for
~3x the CPU a game: nothing measurable. Not kept. (Measured with a first draft of this
file: the same rule, drawing on the bot's random stream in another order, so a rerun
plays other games.)
"""

from __future__ import annotations

import math
import random
from functools import cached_property
from typing import ClassVar

import bots.builtin.search as search
from bots.builtin.heuristic_plan import cheapest
from bots.builtin.search_clock import think_budget
from bots.builtin.search_finish import winning_move
from bots.builtin.search_policy import SearchPlan, SearchPolicy
from bots.builtin.search_rollout import choose
from bots.builtin.search_trade import best_offer
from engine import Action, Observation, Phase
from engine import actions as A
from engine.types import Bag

SAVES_OR_SPENDS = (A.EndTurn, A.BuyDevCard, A.MaritimeTrade, A.BuildRoad, A.ProposeTrade)


class ForcedPlan(SearchPlan):
    """:class:`SearchPlan` saving for :attr:`forced` while it is open."""

    forced: ClassVar[str] = ""

    @cached_property
    def goal(self) -> tuple[str, Bag]:
        options = self.goal_options
        return cheapest([o for o in options if o[1] == self.forced] or options)


def forced_policy(kind: str) -> type[SearchPolicy]:
    plan = type(f"{kind.title()}Plan", (ForcedPlan,), {"forced": kind})
    return type(f"{kind.title()}Policy", (SearchPolicy,), {"plan": plan})


POLICIES = {kind: forced_policy(kind) for kind in ("city", "settlement", "road", "dev")}


class GoalsPlayer(search.SearchPlayer):
    name = "search, goals"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.forced = {kind: policy(self.rng) for kind, policy in POLICIES.items()}

    def act(self, observation: Observation) -> Action:
        obs = observation
        if obs.phase is not Phase.MAIN or len(obs.legal_actions) == 1:
            return super().act(obs)
        default = self.base.act(obs)
        if not isinstance(default, SAVES_OR_SPENDS):
            return super().act(obs)  # a build: the like-with-like search
        start, cpu_start = self.clock(), self.cpu_clock()
        budget = think_budget(obs.clock)
        self.deadline = self._deadline(start, cpu_start, budget, 1.0)
        finish = self._deadline(start, cpu_start, budget, search.FINISH_SHARE)
        winning = winning_move(obs, self.rng, finish)
        if winning is not None:
            return winning
        plan = SearchPlan(obs)
        own = plan.goal[0]
        costs = {kind: cost for _, kind, cost in plan.goal_options}
        kinds = [own, *(k for k in costs if k != own)]
        firsts = [default, *(self.forced[k].act(obs) for k in kinds[1:])]
        owns = [None, *(self.forced[k] for k in kinds[1:])]
        until = self._deadline(start, cpu_start, budget, search.ROLLOUT_SHARE)
        horizon = next(h for limit, h in search.HORIZONS if budget.cpu < limit)
        action, _ = choose(obs, firsts, self.base, self.rng, until, horizon, self.max_samples, owns)
        kind = kinds[firsts.index(action)]
        if isinstance(action, search.YIELDING):
            samples = search.TRADE_SAMPLES if self.max_samples is None else self.max_samples
            cost = costs.get(kind, plan.goal[1])
            rejected = self._rejected(obs)
            offer = best_offer(obs, cost, self.rng, self.deadline, samples, rejected)
            if offer is not None:
                self.pending = (obs.turn, obs.resource_counts, offer)
                return offer
        return action


search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched
