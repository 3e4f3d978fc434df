"""Tuning variant: at the 1 s clock's horizon, main-phase decisions whose default saves or
spends (ending the turn, buying a card, a bank trade, a road) also compare unlike
choices: ending the turn, buying a card, the best road, and a bank trade toward a city, a
settlement or a card; the rest of the turn and four more are the default policy's.

Against :mod:`horizon4` on the same games (seeds 710000-710599, 24 samples): 354/600 =
59.0% against 347/600, a paired difference of +1.2 points (95% interval ±4.5): nothing
measurable, for ~1.6x the CPU. Not kept.
"""

from __future__ import annotations

import math

import bots.builtin.search as search
from bots.builtin.heuristic_plan import Plan
from bots.builtin.search_candidates import candidates as like_candidates
from engine import Action, Observation, Phase
from engine import actions as A
from engine.types import COST_CITY, COST_DEV_CARD, COST_SETTLEMENT

SAVES_OR_SPENDS = (A.EndTurn, A.BuyDevCard, A.MaritimeTrade, A.BuildRoad)


def candidates(obs: Observation, default: Action, plan: Plan) -> list[Action]:
    """The like-with-like candidates, then the unlike ones where the default saves or spends."""
    out = like_candidates(obs, default, plan)
    if obs.phase is not Phase.MAIN or not isinstance(default, SAVES_OR_SPENDS):
        return out
    legal = obs.legal_actions
    extra: list[Action | None] = [
        A.END_TURN if A.END_TURN in legal else None,
        A.BUY_DEV if A.BUY_DEV in legal else None,
        plan.best_road(plan.of_type(A.BuildRoad)),
        *(plan.bank_trade_toward(cost) for cost in (COST_CITY, COST_SETTLEMENT, COST_DEV_CARD)),
    ]
    for action in extra:
        if action is not None and action not in out:
            out.append(action)
    return out


search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched
search.candidates = candidates  # type: ignore[attr-defined]  # its import, patched


class UnlikePlayer(search.SearchPlayer):
    name = "search, unlike choices"
