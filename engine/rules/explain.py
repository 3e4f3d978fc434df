"""Why an action is illegal now: a message naming the rule it breaks."""

from __future__ import annotations

from engine import actions as A
from engine.phases import Phase
from engine.rules.legal import robber_hexes, robber_victims
from engine.rules.roads import can_build_road_at
from engine.rules.trade import can_trade_now
from engine.state import GameState
from engine.types import COST_CITY, COST_DEV_CARD, COST_ROAD, COST_SETTLEMENT, Bag, bag_str

_PHASE_ACTIONS: dict[Phase, tuple[type, ...]] = {
    Phase.SETUP_SETTLEMENT: (A.BuildSettlement,),
    Phase.SETUP_ROAD: (A.BuildRoad,),
    Phase.ROLL: (A.RollDice, A.PlayKnight, A.PlayRoadBuilding, A.PlayYearOfPlenty, A.PlayMonopoly),
    Phase.DISCARD: (A.Discard,),
    Phase.MOVE_ROBBER: (A.MoveRobber,),
    Phase.MAIN: (
        A.BuildRoad, A.BuildSettlement, A.BuildCity, A.BuyDevCard, A.PlayKnight,
        A.PlayRoadBuilding, A.PlayYearOfPlenty, A.PlayMonopoly, A.MaritimeTrade,
        A.ProposeTrade, A.EndTurn,
    ),
    Phase.ROAD_BUILDING: (A.BuildRoad,),
    Phase.TRADE_RESPONSE: (A.AcceptTrade, A.RejectTrade, A.CounterTrade),
    Phase.TRADE_CONFIRM: (A.ConfirmTrade, A.CancelTrade),
    Phase.GAME_OVER: (),
}  # fmt: skip

_CARD_OF = {
    A.PlayKnight: 0,
    A.PlayRoadBuilding: 1,
    A.PlayYearOfPlenty: 2,
    A.PlayMonopoly: 3,
}


def explain_illegal(s: GameState, action: A.Action) -> str:
    """A one-line reason, e.g. ``distance rule: intersection 12 is next to a building``."""
    if s.phase is Phase.GAME_OVER:
        return "the game is over"
    if type(action) not in _PHASE_ACTIONS[s.phase]:
        allowed = ", ".join(str(getattr(c, "kind", c.__name__)) for c in _PHASE_ACTIONS[s.phase])
        return f"{action.kind} is not allowed in phase {s.phase.label} (allowed: {allowed})"
    seat = s.decider
    if isinstance(action, A.BuildRoad):
        return _road(s, seat, action.edge)
    if isinstance(action, A.BuildSettlement):
        return _settlement(s, seat, action.node)
    if isinstance(action, A.BuildCity):
        if s.node_owner[action.node] != seat or s.node_kind[action.node] != 1:
            return f"a city replaces one of your settlements; intersection {action.node} has none"
        if not s.cities_left[seat]:
            return "piece limit: you have no cities left (4 per player)"
        return _afford(s, seat, COST_CITY, "a city")
    if isinstance(action, A.BuyDevCard):
        if not any(s.deck):
            return "the development deck is empty"
        return _afford(s, seat, COST_DEV_CARD, "a development card")
    if type(action) in _CARD_OF:
        return _dev_card(s, seat, _CARD_OF[type(action)], action)
    if isinstance(action, A.Discard):
        return f"you hold no {action.resource.label} to discard"
    if isinstance(action, A.MoveRobber):
        return _robber(s, action)
    if isinstance(action, A.MaritimeTrade):
        return _maritime(s, seat, action)
    if isinstance(action, A.ProposeTrade):
        if not s.config.domestic_trade:
            return "domestic trade is switched off in this game"
        if s.offers_made >= s.config.max_trade_offers_per_turn:
            return f"at most {s.config.max_trade_offers_per_turn} trade offers per turn"
        if not can_trade_now(s):
            return "trade-then-build: no trading after building in this turn"
        return "illegal trade offer"
    if isinstance(action, A.AcceptTrade):
        return "you cannot accept: you do not hold the cards asked for"
    if isinstance(action, A.ConfirmTrade):
        return f"seat {action.seat} did not accept, or you cannot pay its counter-offer"
    return f"{action} is not legal now"


def _afford(s: GameState, seat: int, cost: Bag, what: str) -> str:
    hand = s.hands[seat]
    if any(hand[r] < cost[r] for r in range(5)):
        return f"you cannot afford {what} (costs {bag_str(cost)}, you hold {bag_str(hand)})"
    return f"{what} is not legal now"


def _road(s: GameState, seat: int, edge: int) -> str:
    if s.edge_owner[edge] != -1:
        return f"only one road per path: path {edge} is taken"
    if s.phase is Phase.SETUP_ROAD:
        return f"a set-up road must touch the settlement just placed (intersection {s.setup_node})"
    if not s.roads_left[seat]:
        return "piece limit: you have no roads left (15 per player)"
    if not can_build_road_at(s, seat, edge):
        return f"a road must connect to your road, settlement or city; path {edge} does not"
    if s.phase is Phase.MAIN:
        return _afford(s, seat, COST_ROAD, "a road")
    return f"road on path {edge} is not legal now"


def _settlement(s: GameState, seat: int, node: int) -> str:
    if s.node_owner[node] != -1:
        return f"intersection {node} is already built on"
    if s.blocked[node]:
        return f"distance rule: intersection {node} is next to a settlement or city"
    if s.phase is Phase.SETUP_SETTLEMENT:
        return f"settlement on {node} is not legal now"
    if not s.settlements_left[seat]:
        return "piece limit: you have no settlements left (5; build a city to get one back)"
    if node not in s.road_nodes[seat]:
        return f"a settlement must connect to one of your roads; intersection {node} does not"
    return _afford(s, seat, COST_SETTLEMENT, "a settlement")


def _dev_card(s: GameState, seat: int, card: int, action: A.Action) -> str:
    if s.dev_played:
        return "only one development card may be played per turn"
    owned, new = s.devs[seat][card], s.devs_new[card]
    if not owned:
        return f"you hold no {action.kind.removeprefix('play_')} card"
    if owned <= new:
        return "a development card cannot be played in the turn it was bought"
    if isinstance(action, A.PlayYearOfPlenty):
        return "year of plenty: the bank does not hold those resources"
    if isinstance(action, A.PlayRoadBuilding):
        return "road building: you have no road you could place"
    return f"{action} is not legal now"


def _robber(s: GameState, action: A.MoveRobber) -> str:
    if action.hex == s.robber and action.hex in robber_hexes(s):
        pass
    elif action.hex == s.robber:
        return "the robber must move to a different hex"
    elif action.hex not in robber_hexes(s):
        return f"friendly robber: hex {action.hex} touches a player with 2 or fewer points"
    victims = robber_victims(s, action.hex)
    if action.victim is None and victims:
        return f"you must steal from one of seats {victims} next to hex {action.hex}"
    return f"seat {action.victim} cannot be robbed at hex {action.hex} (robbable: {victims})"


def _maritime(s: GameState, seat: int, action: A.MaritimeTrade) -> str:
    if not can_trade_now(s):
        return "trade-then-build: no trading after building in this turn"
    if action.give == action.get:
        return "no like-for-like: give and get must differ"
    ratio = s.ratios[seat][action.give]
    if s.hands[seat][action.give] < ratio:
        return f"maritime trade needs {ratio} {action.give.label} (your best ratio is {ratio}:1)"
    return f"the bank has no {action.get.label} left"
