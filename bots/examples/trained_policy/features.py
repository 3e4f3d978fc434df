"""Features of each candidate action in one observation (a helper module beside bot.py:
packages import their helpers by name).

One row per candidate: the action's kind (one-hot) and a few hand-made measures of its
effect, read from the ``heuristic`` bot's board analysis (``bots.builtin``, part of the
SDK every bot may import): the value of a spot or city, where a road leads, how much
nearer a trade or card brings the build being saved for, whom the robber hurts. The
learned weights decide how these add up; nothing here picks an action.
"""

from __future__ import annotations

import numpy as np

from bots.builtin.heuristic_board import longest_from, spot_value
from bots.builtin.heuristic_plan import missing
from bots.builtin.search_policy import SearchPlan as Plan
from engine import Action, Observation, Phase
from engine import actions as A
from engine.types import BANK_PER_RESOURCE, COST_CITY, COST_DEV_CARD, COST_SETTLEMENT

KINDS = (
    "roll_dice", "end_turn", "build_road", "build_settlement", "build_city",
    "buy_dev_card", "play_knight", "play_road_building", "play_year_of_plenty",
    "play_monopoly", "maritime_trade", "discard", "move_robber",
)  # fmt: skip
NAMES = (
    *KINDS, "other",
    "setup_spot", "spot", "city", "setup_road", "road_target", "road_longest",
    "road_goal", "road_spare", "goal_gain", "goal_done", "over_limit_end",
    "over_limit_trade", "dev_goal", "dev_cheap", "knight_unblock", "knight_army",
    "knight_before_roll", "monopoly", "plenty", "robber_block", "robber_victim",
    "robber_cards", "robber_self", "discard_spare_goal", "discard_spare_build",
    "discard_prod", "trade_lack_get", "trade_spare_give", "bias_end_main",
    "trade_feasible", "trade_surplus", "trade_ratio", "trade_dump", "discard_most_spare",
    "trade_toward", "trade_dump_ok",
)  # fmt: skip
"""The columns of a feature row, in order."""
SIZE = len(NAMES)
_COL = {name: i for i, name in enumerate(NAMES)}
_BACKUP = tuple(c + d for c, d in zip(COST_CITY, COST_SETTLEMENT, strict=True))


def candidates(observation: Observation) -> list[Action]:
    """The actions the policy chooses among: the legal ones, domestic offers left out."""
    return [a for a in observation.legal_actions if not isinstance(a, A.ProposeTrade)]


def features(observation: Observation, actions: list[Action]) -> np.ndarray:
    """A ``(len(actions), SIZE)`` matrix: one feature row per candidate action."""
    plan = Plan(observation)
    rows = np.zeros((len(actions), SIZE))
    for i, action in enumerate(actions):
        _row(plan, action, rows[i])
    return rows


def _row(p: Plan, a: Action, row: np.ndarray) -> None:
    obs, hand = p.obs, p.hand
    kind = a.kind
    row[KINDS.index(kind) if kind in KINDS else len(KINDS)] = 1.0
    setup = obs.phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD)
    if isinstance(a, A.BuildSettlement):
        robber = -1 if setup else obs.robber
        row[_COL["setup_spot" if setup else "spot"]] = (
            spot_value(p.info, a.node, p.prod, robber) / 10
        )
    elif isinstance(a, A.BuildCity):
        row[_COL["city"]] = p.city_value(a.node) / 10
    elif isinstance(a, A.BuildRoad):
        _road(p, a, row, setup)
    elif isinstance(a, A.MaritimeTrade):
        after = list(hand)
        after[a.give] -= p.ratios[a.give]
        after[a.get] += 1
        _goal_change(p, after, row)
        cost = p.goal[1]
        row[_COL["over_limit_trade"]] = float(sum(hand) > obs.config.discard_limit)
        row[_COL["trade_lack_get"]] = float(cost[a.get] > hand[a.get])
        row[_COL["trade_spare_give"]] = float(hand[a.give] - cost[a.give] >= p.ratios[a.give])
        _trade(p, a, row)
    elif a == A.BUY_DEV:
        after = [h - c for h, c in zip(hand, COST_DEV_CARD, strict=True)]
        _goal_change(p, after, row)
        row[_COL["dev_goal"]] = float(p.goal[0] == "dev")
        row[_COL["dev_cheap"]] = float(missing(p.goal[1], after) <= missing(p.goal[1], hand) + 1)
        row[_COL["over_limit_trade"]] = float(sum(hand) >= 8)
    elif a == A.END_TURN:
        row[_COL["over_limit_end"]] = float(sum(hand) > obs.config.discard_limit)
        row[_COL["bias_end_main"]] = float(obs.phase is Phase.MAIN)
    elif a == A.KNIGHT:
        row[_COL["knight_unblock"]] = float(p._robber_hurts_me())
        row[_COL["knight_army"]] = float(p._army_gain())
        row[_COL["knight_before_roll"]] = float(obs.phase is Phase.ROLL)
    elif isinstance(a, A.PlayMonopoly):
        held = BANK_PER_RESOURCE - obs.bank[a.resource] - hand[a.resource]
        need = 1.5 if p.goal[1][a.resource] > hand[a.resource] else 1.0
        row[_COL["monopoly"]] = held * need / 10
    elif isinstance(a, A.PlayYearOfPlenty):
        row[_COL["plenty"]] = p.plenty_value(a) / 10
    elif isinstance(a, A.MoveRobber):
        _robber(p, a, row)
    elif isinstance(a, A.Discard):
        r = a.resource
        row[_COL["discard_spare_goal"]] = (hand[r] - p.goal[1][r]) / 4
        row[_COL["discard_spare_build"]] = (hand[r] - _BACKUP[r]) / 4
        row[_COL["discard_prod"]] = p.prod[r] / 10
        most = max(hand[x] - p.goal[1][x] for x in range(5) if hand[x])
        row[_COL["discard_most_spare"]] = float(hand[r] - p.goal[1][r] == most)


def _road(p: Plan, a: A.BuildRoad, row: np.ndarray, setup: bool) -> None:
    target = p.roads.get(a.edge, 0.0) / 10
    row[_COL["setup_road" if setup else "road_target"]] = target
    if setup:
        return
    if p._road_contest():
        mine = [e for e, o in enumerate(p.obs.edge_owner) if o == p.me]
        gain = longest_from([*mine, a.edge], p.obs, p.board, p.me) - p.obs.road_lengths[p.me]
        row[_COL["road_longest"]] = max(0, gain)
    row[_COL["road_goal"]] = float(p.goal[0] == "road")
    cost = p.goal[1]
    row[_COL["road_spare"]] = float(p.hand[0] > cost[0] and p.hand[1] > cost[1])


def _trade(p: Plan, a: A.MaritimeTrade, row: np.ndarray) -> None:
    """What the heuristic weighs in a bank trade: can spare cards complete the goal, how
    much is left over of what we give, and, with too many cards, what we get."""
    hand, cost, ratio = p.hand, p.goal[1], p.ratios
    lack = [max(0, c - h) for c, h in zip(cost, hand, strict=True)]
    spare = [max(0, h - c) for c, h in zip(cost, hand, strict=True)]
    tradable = sum(s // q for s, q in zip(spare, ratio, strict=True))
    row[_COL["trade_feasible"]] = float(0 < sum(lack) <= tradable and lack[a.get] > 0)
    row[_COL["trade_surplus"]] = (spare[a.give] - ratio[a.give]) / 4
    row[_COL["trade_ratio"]] = ratio[a.give] / 4
    gives = spare[a.give] >= ratio[a.give]
    row[_COL["trade_toward"]] = float(gives and row[_COL["trade_feasible"]] > 0)
    if sum(hand) > p.obs.config.discard_limit:
        worth = 3 * lack[a.get] + _BACKUP[a.get] - hand[a.get]
        row[_COL["trade_dump"]] = worth / 5
        row[_COL["trade_dump_ok"]] = float(hand[a.give] - cost[a.give] >= ratio[a.give])


def _goal_change(p: Plan, after: list[int], row: np.ndarray) -> None:
    cost = p.goal[1]
    before = missing(cost, p.hand)
    now = missing(cost, after)
    row[_COL["goal_gain"]] = before - now
    row[_COL["goal_done"]] = float(now == 0 and before > 0)


def _robber(p: Plan, a: A.MoveRobber, row: np.ndarray) -> None:
    obs, me, info = p.obs, p.me, p.info
    points = obs.visible_points
    top = max(points[s] for s in range(len(points)) if s != me)

    def threat(s: int) -> float:
        return 1.0 + 0.25 * points[s] + (0.75 if points[s] == top else 0.0)

    block, own = 0.0, 0.0
    for v in p.board.hex_nodes[a.hex]:
        owner = obs.node_owner[v]
        if owner == me:
            own = 1.0
        elif owner >= 0:
            block += info.hex_pips[a.hex] * obs.node_kind[v] * threat(owner)
    row[_COL["robber_block"]] = block / 20
    row[_COL["robber_self"]] = own
    if a.victim is not None:
        row[_COL["robber_victim"]] = threat(a.victim) / 3
        row[_COL["robber_cards"]] = min(obs.resource_counts[a.victim], 8) / 8
