"""Applying an action to the state: one small function per action kind.

:func:`apply_action` assumes the action is legal (``engine.game.Game.apply`` checks
first); it records the step (seat, action, chance outcome) and returns the outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import actions as A
from engine.chance import draw_from, roll_dice
from engine.phases import (
    DISCARD,
    GAME_OVER,
    MAIN,
    MOVE_ROBBER,
    ROAD_BUILDING,
    ROLL,
    SETUP_ROAD,
    SETUP_SETTLEMENT,
    TRADE_CONFIRM,
    TRADE_RESPONSE,
    Termination,
)
from engine.rules.production import produce
from engine.rules.roads import refresh_buildable, road_built
from engine.rules.scoring import check_victory, update_largest_army, update_longest_road
from engine.rules.trade import claim_harbor
from engine.state import GameState
from engine.types import COST_CITY, COST_DEV_CARD, COST_ROAD, COST_SETTLEMENT, Bag

Handler = Callable[[GameState, Any, object], object]


def apply_action(s: GameState, action: A.Action, forced: object = None) -> object:
    """Apply a legal ``action`` for ``s.decider``; ``forced`` replays a chance outcome.

    Returns the chance outcome (dice, card drawn, card stolen) or None.
    """
    seat = s.decider
    outcome = _HANDLERS[type(action)](s, action, forced)
    s.steps.append((seat, action, outcome))
    cur = s.current
    if s.public_vp[cur] + s.devs[cur][4] >= s.config.vp_to_win and s.phase is not GAME_OVER:
        check_victory(s)
    return outcome


# --- helpers ---------------------------------------------------------------------------


def _pay(s: GameState, seat: int, cost: Bag) -> None:
    hand, bank = s.hands[seat], s.bank
    for r in range(5):
        if cost[r]:
            hand[r] -= cost[r]
            bank[r] += cost[r]


def place_road(s: GameState, seat: int, edge: int) -> None:
    s.public_view = None
    s.edge_owner[edge] = seat
    s.roads_left[seat] -= 1
    s.road_edges[seat].append(edge)
    a, b = s.board.edge_nodes[edge]
    s.road_nodes[seat].update((a, b))
    road_built(s, seat, edge)
    update_longest_road(s, (seat,), edge)


def place_settlement(s: GameState, seat: int, node: int) -> None:
    board = s.board
    s.public_view = None
    s.node_owner[node] = seat
    s.node_kind[node] = 1
    s.blocked[node] += 1
    for other in board.node_neighbours[node]:
        s.blocked[other] += 1
    s.settlements_left[seat] -= 1
    s.public_vp[seat] += 1
    claim_harbor(s, seat, node)
    refresh_buildable(s, (node,))
    # An opponent's road running through this intersection may be broken.
    edge_owner = s.edge_owner
    cut = {edge_owner[e] for e in board.node_edges[node]} - {-1, seat}
    if cut:
        update_longest_road(s, cut)


def _next_turn(s: GameState) -> None:
    s.turn += 1
    if s.turn > s.config.max_turns:
        s.phase = GAME_OVER
        s.termination = Termination.TURN_LIMIT
        return
    s.current = s.decider = (s.current + 1) % s.n if s.turn > 1 else 0
    s.phase = ROLL
    s.rolled = s.dev_played = s.built = False
    s.devs_new = [0] * 5
    s.offers_made = 0


# --- handlers --------------------------------------------------------------------------


def _build_road(s: GameState, action: A.BuildRoad, forced: object) -> None:
    seat = s.current
    if s.phase is SETUP_ROAD:
        place_road(s, seat, action.edge)
        s.setup_index += 1
        n = s.n
        if s.setup_index == 2 * n:
            _next_turn(s)
        else:
            i = s.setup_index
            s.current = s.decider = i if i < n else 2 * n - 1 - i
            s.phase = SETUP_SETTLEMENT
        return
    if s.phase is ROAD_BUILDING:
        place_road(s, seat, action.edge)
        s.free_roads -= 1
        if not s.free_roads or not s.roads_left[seat] or not s.buildable[seat]:
            s.free_roads = 0
            s.phase = s.resume_phase
        return
    _pay(s, seat, COST_ROAD)
    place_road(s, seat, action.edge)
    s.built = True


def _build_settlement(s: GameState, action: A.BuildSettlement, forced: object) -> None:
    seat, node = s.current, action.node
    if s.phase is SETUP_SETTLEMENT:
        place_settlement(s, seat, node)
        s.setup_node = node
        if s.setup_index >= s.n:  # second settlement: its neighbouring hexes pay out
            hand, bank = s.hands[seat], s.bank
            for h in s.board.node_hexes[node]:
                r = s.board.hex_resource[h]
                if r >= 0 and bank[r]:
                    hand[r] += 1
                    bank[r] -= 1
        s.phase = SETUP_ROAD
        return
    _pay(s, seat, COST_SETTLEMENT)
    place_settlement(s, seat, node)
    s.built = True


def place_city(s: GameState, seat: int, node: int) -> None:
    """Upgrade ``seat``'s settlement on ``node``; the settlement returns to the supply."""
    s.public_view = None
    s.node_kind[node] = 2
    s.settlements_left[seat] += 1
    s.cities_left[seat] -= 1
    s.public_vp[seat] += 1


def _build_city(s: GameState, action: A.BuildCity, forced: object) -> None:
    seat = s.current
    _pay(s, seat, COST_CITY)
    place_city(s, seat, action.node)
    s.built = True


def _buy_dev(s: GameState, action: A.BuyDevCard, forced: object) -> int:
    seat = s.current
    _pay(s, seat, COST_DEV_CARD)
    card = draw_from(s.chance.deck, s.deck, forced)
    s.public_view = None
    s.deck[card] -= 1
    s.devs[seat][card] += 1
    s.devs_new[card] += 1
    s.built = True
    return card


def _roll(s: GameState, action: A.RollDice, forced: object) -> tuple[int, int]:
    dice = roll_dice(s.chance.dice, forced)
    s.dice = dice
    s.rolled = True
    total = dice[0] + dice[1]
    if total != 7:
        produce(s, total)
        s.phase = MAIN
        return dice
    limit = s.config.discard_limit
    for seat in range(s.n):
        size = sum(s.hands[seat])
        s.to_discard[seat] = size // 2 if size > limit else 0
    s.resume_phase = MAIN
    _next_discarder(s)
    return dice


def _next_discarder(s: GameState) -> None:
    for i in range(s.n):
        seat = (s.current + i) % s.n
        if s.to_discard[seat]:
            s.phase = DISCARD
            s.decider = seat
            return
    s.phase = MOVE_ROBBER
    s.decider = s.current


def _discard(s: GameState, action: A.Discard, forced: object) -> None:
    seat, r = s.decider, action.resource
    s.hands[seat][r] -= 1
    s.bank[r] += 1
    s.to_discard[seat] -= 1
    if not s.to_discard[seat]:
        _next_discarder(s)


def _move_robber(s: GameState, action: A.MoveRobber, forced: object) -> int | None:
    s.robber = action.hex
    stolen = None
    if action.victim is not None:
        victim_hand = s.hands[action.victim]
        stolen = draw_from(s.chance.steal, victim_hand, forced)
        victim_hand[stolen] -= 1
        s.hands[s.current][stolen] += 1
    s.phase = s.resume_phase
    s.decider = s.current
    return stolen


def _play_card(s: GameState, card: int) -> None:
    s.public_view = None
    s.devs[s.current][card] -= 1
    s.played_devs[card] += 1
    s.dev_played = True
    s.resume_phase = s.phase


def _knight(s: GameState, action: A.PlayKnight, forced: object) -> None:
    seat = s.current
    _play_card(s, 0)
    s.knights[seat] += 1
    update_largest_army(s, seat)
    s.phase = MOVE_ROBBER


def _road_building(s: GameState, action: A.PlayRoadBuilding, forced: object) -> None:
    _play_card(s, 1)
    s.free_roads = min(2, s.roads_left[s.current])
    s.phase = ROAD_BUILDING


def _year_of_plenty(s: GameState, action: A.PlayYearOfPlenty, forced: object) -> None:
    _play_card(s, 2)
    hand = s.hands[s.current]
    for r in (action.first, action.second):
        s.bank[r] -= 1
        hand[r] += 1


def _monopoly(s: GameState, action: A.PlayMonopoly, forced: object) -> None:
    _play_card(s, 3)
    r, me = action.resource, s.current
    for seat in range(s.n):
        if seat != me:
            s.hands[me][r] += s.hands[seat][r]
            s.hands[seat][r] = 0


def _maritime(s: GameState, action: A.MaritimeTrade, forced: object) -> None:
    seat, give, get = s.current, action.give, action.get
    ratio = s.ratios[seat][give]
    hand = s.hands[seat]
    hand[give] -= ratio
    s.bank[give] += ratio
    s.bank[get] -= 1
    hand[get] += 1


def _propose(s: GameState, action: A.ProposeTrade, forced: object) -> None:
    s.offers_made += 1
    s.offer = (action.give, action.get)
    s.responses = [None] * s.n
    s.phase = TRADE_RESPONSE
    s.decider = (s.current + 1) % s.n


def _respond(s: GameState, answer: object) -> None:
    s.responses[s.decider] = answer
    nxt = (s.decider + 1) % s.n
    if nxt != s.current:
        s.decider = nxt
        return
    s.decider = s.current
    if any(r is not None and r != "reject" for r in s.responses):
        s.phase = TRADE_CONFIRM
    else:
        _close_trade(s)


def _accept(s: GameState, action: A.AcceptTrade, forced: object) -> None:
    _respond(s, "accept")


def _reject(s: GameState, action: A.RejectTrade, forced: object) -> None:
    _respond(s, "reject")


def _counter(s: GameState, action: A.CounterTrade, forced: object) -> None:
    _respond(s, (action.give, action.get))


def _confirm(s: GameState, action: A.ConfirmTrade, forced: object) -> None:
    assert s.offer is not None
    me, other = s.current, action.seat
    answer = s.responses[other]
    if answer == "accept":
        give, get = s.offer
    else:  # a counter: the responder gives answer[0] and receives answer[1]
        get, give = answer
    mine, theirs = s.hands[me], s.hands[other]
    for r in range(5):
        mine[r] += get[r] - give[r]
        theirs[r] += give[r] - get[r]
    _close_trade(s)


def _cancel(s: GameState, action: A.CancelTrade, forced: object) -> None:
    _close_trade(s)


def _close_trade(s: GameState) -> None:
    s.offer = None
    s.responses = [None] * s.n
    s.phase = MAIN
    s.decider = s.current


def _end_turn(s: GameState, action: A.EndTurn, forced: object) -> None:
    _next_turn(s)


_HANDLERS: dict[type, Handler] = {
    A.BuildRoad: _build_road,
    A.BuildSettlement: _build_settlement,
    A.BuildCity: _build_city,
    A.BuyDevCard: _buy_dev,
    A.RollDice: _roll,
    A.Discard: _discard,
    A.MoveRobber: _move_robber,
    A.PlayKnight: _knight,
    A.PlayRoadBuilding: _road_building,
    A.PlayYearOfPlenty: _year_of_plenty,
    A.PlayMonopoly: _monopoly,
    A.MaritimeTrade: _maritime,
    A.ProposeTrade: _propose,
    A.AcceptTrade: _accept,
    A.RejectTrade: _reject,
    A.CounterTrade: _counter,
    A.ConfirmTrade: _confirm,
    A.CancelTrade: _cancel,
    A.EndTurn: _end_turn,
}
