"""Legal-action enumeration, dispatched on the phase.

The list is complete for every action kind except domestic trade offers: there, the list
holds the one-for-one offers, and any other well-formed offer is legal too (see
``engine.rules.trade.offer_problem``). Order is canonical (stable across runs).
"""

from __future__ import annotations

from collections.abc import Callable

from engine import actions as A
from engine.actions import Action
from engine.phases import Phase
from engine.rules.trade import can_trade_now
from engine.state import GameState

LegalFn = Callable[[GameState], list[Action]]


def legal_actions(s: GameState) -> list[Action]:
    """Every legal action for ``s.decider`` now (empty when the game is over)."""
    return BY_PHASE[s.phase](s)


def _setup_settlement(s: GameState) -> list[Action]:
    owner, blocked, table = s.node_owner, s.blocked, A.SETTLEMENTS
    return [table[v] for v in range(len(owner)) if owner[v] == -1 and not blocked[v]]


def _setup_road(s: GameState) -> list[Action]:
    edge_owner, table = s.edge_owner, A.ROADS
    return [table[e] for e in s.board.node_edges[s.setup_node] if edge_owner[e] == -1]


def _dev_plays(s: GameState, out: list[Action]) -> None:
    if s.dev_played:
        return
    p = s.current
    mine, new = s.devs[p], s.devs_new
    if mine[0] > new[0]:
        out.append(A.KNIGHT)
    if mine[1] > new[1] and s.roads_left[p] and s.buildable[p]:
        out.append(A.ROAD_BUILDING)
    if mine[2] > new[2]:
        bank = s.bank
        for a in range(5):
            if bank[a]:
                row = A.PLENTY[a]
                if bank[a] >= 2:
                    out.append(row[a])
                for b in range(a + 1, 5):
                    if bank[b]:
                        out.append(row[b])
    if mine[3] > new[3]:
        out.extend(A.MONOPOLIES)


def _roll(s: GameState) -> list[Action]:
    out: list[Action] = [A.ROLL]
    if not s.dev_played:
        _dev_plays(s, out)
    return out


def _discard(s: GameState) -> list[Action]:
    hand, table = s.hands[s.decider], A.DISCARDS
    return [table[r] for r in range(5) if hand[r]]


def robber_hexes(s: GameState) -> list[int]:
    """Hexes the robber may move to (friendly robber: none touching a weak opponent;
    if none is left, the desert, even if the robber is already there)."""
    hexes = list(range(s.board.num_hexes))
    del hexes[s.robber]
    if not s.config.friendly_robber:
        return hexes
    weak = _weak_opponents(s)
    owner, hex_nodes = s.node_owner, s.board.hex_nodes
    allowed = [h for h in hexes if not any(owner[v] in weak for v in hex_nodes[h])]
    return allowed or [s.board.desert]


FRIENDLY_ROBBER_MAX_POINTS = 2
"""Friendly robber: opponents with this many visible points or fewer are protected."""


def _weak_opponents(s: GameState) -> set[int]:
    vp = s.public_vp
    return {p for p in range(s.n) if p != s.current and vp[p] <= FRIENDLY_ROBBER_MAX_POINTS}


def _robbable(s: GameState) -> list[bool]:
    """Per seat: may the player on turn rob it (an opponent with cards; friendly robber:
    not a protected one)?"""
    weak = _weak_opponents(s) if s.config.friendly_robber else set()
    me = s.current
    return [p != me and p not in weak and any(hand) for p, hand in enumerate(s.hands)]


def robber_victims(s: GameState, hex_: int, robbable: list[bool] | None = None) -> list[int]:
    """Opponents with a building on ``hex_`` that may be robbed, in seat order."""
    if robbable is None:
        robbable = _robbable(s)
    owner = s.node_owner
    mask = 0
    for v in s.board.hex_nodes[hex_]:
        o = owner[v]
        if o >= 0 and robbable[o]:
            mask |= 1 << o
    return [p for p in range(s.n) if mask >> p & 1]


def _move_robber(s: GameState) -> list[Action]:
    robbable = _robbable(s)
    masks = [0] * s.board.num_hexes
    owner, node_hexes = s.node_owner, s.board.node_hexes
    for node, seat in enumerate(owner):
        if seat >= 0 and robbable[seat]:
            bit = 1 << seat
            for h in node_hexes[node]:
                masks[h] |= bit
    out: list[Action] = []
    choices = _ROBBER_CHOICES
    for h in robber_hexes(s):
        out.extend(choices[h][masks[h]])
    return out


_ROBBER_CHOICES = tuple(
    tuple(
        tuple(row[p + 1] for p in range(A.MAX_SEATS) if mask >> p & 1) if mask else (row[0],)
        for mask in range(1 << A.MAX_SEATS)
    )
    for row in A.ROBBER
)
"""``_ROBBER_CHOICES[hex][mask]``: the robber moves to ``hex`` robbing a seat of ``mask``
(in seat order), or robbing nobody when ``mask`` is 0."""


def _main(s: GameState) -> list[Action]:
    p = s.current
    hand = s.hands[p]
    brick, lumber, wool, grain, ore = hand
    out: list[Action] = []
    if brick and lumber:
        if s.roads_left[p]:
            out.extend(map(A.ROADS.__getitem__, sorted(s.buildable[p])))
        if wool and grain and s.settlements_left[p]:
            owner, blocked, table = s.node_owner, s.blocked, A.SETTLEMENTS
            for v in sorted(s.road_nodes[p]):
                if owner[v] == -1 and not blocked[v]:
                    out.append(table[v])
    if grain >= 2 and ore >= 3 and s.cities_left[p]:
        owner, kind, cities = s.node_owner, s.node_kind, A.CITIES
        v = -1
        for _ in range(owner.count(p)):  # the seat's buildings, found in C
            v = owner.index(p, v + 1)
            if kind[v] == 1:
                out.append(cities[v])
    if wool and grain and ore and any(s.deck):
        out.append(A.BUY_DEV)
    if not s.dev_played:
        _dev_plays(s, out)
    if can_trade_now(s):
        bank, ratios = s.bank, s.ratios[p]
        for g in range(5):
            if hand[g] >= ratios[g]:
                row = A.MARITIME[g]
                for t in range(5):
                    if t != g and bank[t]:
                        out.append(row[t])
        if (
            s.config.domestic_trade
            and s.offers_made < s.config.max_trade_offers_per_turn
            and any(any(h) for q, h in enumerate(s.hands) if q != p)
        ):
            for g in range(5):
                if hand[g]:
                    offers = A.OFFERS_ONE_FOR_ONE[g]
                    out.extend(offers[t] for t in range(5) if t != g)
    out.append(A.END_TURN)
    return out


def _road_building(s: GameState) -> list[Action]:
    roads = A.ROADS
    return [roads[e] for e in sorted(s.buildable[s.current])]


def _trade_response(s: GameState) -> list[Action]:
    assert s.offer is not None
    hand, wanted = s.hands[s.decider], s.offer[1]
    if all(hand[r] >= wanted[r] for r in range(5)):
        return [A.ACCEPT, A.REJECT]
    return [A.REJECT]


def _trade_confirm(s: GameState) -> list[Action]:
    assert s.offer is not None
    hand = s.hands[s.current]
    out: list[Action] = []
    for q, answer in enumerate(s.responses):
        if answer == "accept" or (
            isinstance(answer, tuple) and all(hand[r] >= answer[1][r] for r in range(5))
        ):
            out.append(A.CONFIRMS[q])
    out.append(A.CANCEL)
    return out


def _game_over(s: GameState) -> list[Action]:
    return []


BY_PHASE: dict[Phase, LegalFn] = {
    Phase.SETUP_SETTLEMENT: _setup_settlement,
    Phase.SETUP_ROAD: _setup_road,
    Phase.ROLL: _roll,
    Phase.DISCARD: _discard,
    Phase.MOVE_ROBBER: _move_robber,
    Phase.MAIN: _main,
    Phase.ROAD_BUILDING: _road_building,
    Phase.TRADE_RESPONSE: _trade_response,
    Phase.TRADE_CONFIRM: _trade_confirm,
    Phase.GAME_OVER: _game_over,
}
"""The enumeration of each phase (``Game`` calls it directly: one frame fewer)."""
