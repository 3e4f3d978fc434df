"""The few actions the ``search`` bot compares by rollouts (helpers only).

The default policy's choice always comes first; the alternatives spend what it spends,
so the value model compares like with like (it rates cards in hand and development
cards held, and would otherwise favour keeping them): a city or settlement is compared
with every other city and settlement, a road (bought or free) with the other best roads,
a monopoly or Year of Plenty with the other resources, a discard with the other
discards, and a robber move with the best victim on each of the hexes that
hurt opponents most. Other choices (ending the turn, buying or playing a development
card, trading) stay the policy's; domestic offers are left to
:mod:`bots.builtin.search_trade`.
"""

from __future__ import annotations

from typing import Final

from bots.builtin.heuristic_plan import Plan
from engine import Action, Observation, Phase
from engine import actions as A

ROBBER_HEXES: Final = 5
"""Robber hexes compared (the most opponent production blocked)."""
ROADS: Final = 3
"""Roads compared (the policy's best by its own road plan)."""
PLENTY: Final = 4
"""Year of Plenty picks compared (the policy's best by its own rating)."""


def candidates(obs: Observation, default: Action, plan: Plan) -> list[Action]:
    """``default`` first, then the alternatives worth a rollout (no duplicates)."""
    out: list[Action] = [default]
    if obs.phase in (Phase.MAIN, Phase.ROAD_BUILDING):
        if isinstance(default, (A.BuildCity, A.BuildSettlement)):
            out += plan.of_type(A.BuildCity)
            out += plan.of_type(A.BuildSettlement)
        elif isinstance(default, A.BuildRoad):
            roads = plan.roads
            options = sorted(plan.of_type(A.BuildRoad), key=lambda a: -roads.get(a.edge, 0.0))
            out += options[:ROADS]
        elif isinstance(default, A.PlayMonopoly):
            out += plan.of_type(A.PlayMonopoly)
        elif isinstance(default, A.PlayYearOfPlenty):
            plenty = sorted(plan.of_type(A.PlayYearOfPlenty), key=plan.plenty_value)
            out += plenty[-PLENTY:]
    elif obs.phase is Phase.DISCARD:
        out += plan.of_type(A.Discard)
    elif obs.phase is Phase.MOVE_ROBBER:
        out += _robber_moves(obs, plan)
    unique: list[Action] = []
    for action in out:
        if action not in unique:
            unique.append(action)
    return unique


def _robber_moves(obs: Observation, plan: Plan) -> list[Action]:
    """On each hex touching no building of ours, the victim with the most points; the
    hexes blocking the most opponent production first."""
    me, points = obs.seat, obs.visible_points
    pips = plan.info.hex_pips
    by_hex: dict[int, A.MoveRobber] = {}
    for action in plan.of_type(A.MoveRobber):
        best = by_hex.get(action.hex)
        if best is None or _victim_points(best, points) < _victim_points(action, points):
            by_hex[action.hex] = action

    def blocked(h: int) -> float:
        total = 0.0
        for v in plan.board.hex_nodes[h]:
            owner = obs.node_owner[v]
            if owner == me:
                return -1.0
            if owner >= 0:
                total += pips[h] * obs.node_kind[v]
        return total

    hexes = sorted((h for h in by_hex if blocked(h) > 0), key=blocked, reverse=True)
    return [by_hex[h] for h in hexes[:ROBBER_HEXES]]


def _victim_points(action: A.MoveRobber, points: tuple[int, ...]) -> int:
    return -1 if action.victim is None else points[action.victim]
