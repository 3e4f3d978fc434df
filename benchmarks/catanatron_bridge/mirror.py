"""The catanatron side of the bridge: our game mirrored in catanatron's engine.

Runs only in the throwaway virtualenv that ``benchmarks/strength_vs_catanatron.py``
builds (catanatron is GPL: never vendored, never imported by the product or its tests).

For each decision :func:`mirror` builds a catanatron ``Game`` equal to what the seat
sees: the same map (tiles, numbers and ports placed by geometry, ``geometry.py``), the
buildings replayed from the public history in the order they were built (so catanatron's
own road networks and longest-road caches follow), and every count from the observation;
the cards hidden from the seat (opponents' hands and development cards, the deck's order)
come from ``engine.determinize``, a sample consistent with what the seat saw.
:func:`to_ours` maps catanatron's chosen action back to one of our actions.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from catanatron.game import Game as CatanGame
from catanatron.models.actions import generate_playable_actions
from catanatron.models.board import STATIC_GRAPH
from catanatron.models.coordinate_system import Direction
from catanatron.models.enums import CITY, ROAD, SETTLEMENT, ActionPrompt, ActionType
from catanatron.models.map import (
    BASE_MAP_TEMPLATE,
    CatanMap,
    LandTile,
    MapTemplate,
    Port,
    Water,
    initialize_tiles,
)
from catanatron.models.player import Color, RandomPlayer
from catanatron.state import PLAYER_INITIAL_STATE
from geometry import (
    DEV_NAMES,
    RESOURCE_NAMES,
    THEIR_RESOURCE_ORDER,
    corner_position,
    harbor_tiles,
    hex_cubes,
    node_at,
)

from engine import Phase
from engine import actions as A
from engine.board.layouts import BoardLayout
from engine.board.tables import GENERIC_HARBOR, board_for
from engine.board.topology import standard_topology
from engine.observation import Observation
from engine.state import GameState
from engine.types import DevCard, Resource

COLORS = tuple(Color)


class BridgeError(Exception):
    """The mirror disagrees with our game (a mapping or replay fault)."""


@dataclass(frozen=True)
class BoardMap:
    """A catanatron map of one of our layouts and the id maps between the two."""

    catan_map: CatanMap
    node_to_theirs: tuple[int, ...]
    node_to_ours: dict[int, int]
    coordinate_of_hex: tuple[tuple[int, int, int], ...]

    def edge_to_theirs(self, edge: int) -> tuple[int, int]:
        a, b = standard_topology().edge_nodes[edge]
        return (self.node_to_theirs[a], self.node_to_theirs[b])

    def edge_to_ours(self, edge: tuple[int, int]) -> int:
        a, b = (self.node_to_ours[n] for n in edge)
        return standard_topology().edge_between(a, b)


@lru_cache(maxsize=64)
def board_map(layout: BoardLayout) -> BoardMap:
    """catanatron's map of ``layout``: the base frame's tiles in catanatron's own order
    (so its node ids are those of its static graph), our ports on the water ring."""
    ports = harbor_tiles(layout)
    topology: dict[Any, Any] = {}
    for coordinate, kind in BASE_MAP_TEMPLATE.topology.items():
        if kind is LandTile:
            topology[coordinate] = LandTile
        elif coordinate in ports:
            topology[coordinate] = (Port, Direction[ports[coordinate][0]])
        else:
            topology[coordinate] = Water
    template = MapTemplate(
        BASE_MAP_TEMPLATE.numbers,
        [None] * len(ports),
        BASE_MAP_TEMPLATE.tile_resources,
        topology,
    )
    tiles = initialize_tiles(template, number_placement="random")
    cubes = hex_cubes()
    for h, coordinate in enumerate(cubes):
        tile = tiles[coordinate]
        assert isinstance(tile, LandTile)
        resource = layout.terrains[h].resource
        tile.resource = None if resource is None else RESOURCE_NAMES[resource]  # type: ignore[assignment, unused-ignore]
        tile.number = layout.numbers[h] or None
    for coordinate, (_, name) in ports.items():
        port = tiles[coordinate]
        assert isinstance(port, Port)
        port.resource = name  # type: ignore[assignment, unused-ignore]
    catan_map = CatanMap.from_tiles(tiles)
    to_ours: dict[int, int] = {}
    for coordinate, tile in catan_map.land_tiles.items():
        for ref, theirs in tile.nodes.items():
            ours = node_at(corner_position(coordinate, ref.value))
            if ours is None or to_ours.setdefault(theirs, ours) != ours:
                raise BridgeError(f"catanatron node {theirs} has no single place on our board")
    to_theirs = [0] * standard_topology().num_nodes
    for theirs, ours in to_ours.items():
        to_theirs[ours] = theirs
    mapped = BoardMap(catan_map, tuple(to_theirs), to_ours, cubes)
    check(mapped, layout)
    return mapped


def check(mapped: BoardMap, layout: BoardLayout) -> None:
    """The whole mapping, checked: nodes one to one, every hex's six corners, every path,
    each tile's resource and number, each harbor's intersections and ratio."""
    topo, board = standard_topology(), board_for(layout)
    if sorted(mapped.node_to_ours.values()) != list(range(topo.num_nodes)):
        raise BridgeError("the node maps are not one to one")
    for h, coordinate in enumerate(mapped.coordinate_of_hex):
        tile = mapped.catan_map.land_tiles[coordinate]
        if {mapped.node_to_ours[n] for n in tile.nodes.values()} != set(topo.hex_nodes[h]):
            raise BridgeError(f"hex {h}: its corners differ")
        resource = board.hex_resource[h]
        if tile.resource != (None if resource < 0 else RESOURCE_NAMES[resource]):
            raise BridgeError(f"hex {h}: its resource differs")
        if (tile.number or 0) != layout.numbers[h]:
            raise BridgeError(f"hex {h}: its number differs")
    land = set(mapped.node_to_ours)
    theirs = {frozenset(e) for e in STATIC_GRAPH.subgraph(land).edges()}
    ours = {frozenset(mapped.edge_to_theirs(e)) for e in range(topo.num_edges)}
    if theirs != ours or len(ours) != topo.num_edges:
        raise BridgeError("the paths differ")
    for resource, nodes in mapped.catan_map.port_nodes.items():
        kind = GENERIC_HARBOR if resource is None else RESOURCE_NAMES.index(resource)
        expected = {n for n in range(topo.num_nodes) if board.node_harbor[n] == kind}
        if {mapped.node_to_ours[n] for n in nodes} != expected:
            raise BridgeError(f"the harbor {resource or '3:1'} differs")


def _their_bag(bag: list[int] | tuple[int, ...]) -> list[int]:
    """Our resource counts in catanatron's order."""
    return [bag[RESOURCE_NAMES.index(name)] for name in THEIR_RESOURCE_ORDER]


def mirror(obs: Observation, hidden: GameState, me: Any, seed: int) -> CatanGame:
    """A catanatron game equal to ``obs``, its hidden cards from ``hidden`` (a
    determinisation of ``obs``), with the catanatron player ``me`` in the seat."""
    n = len(obs.resource_counts)
    mapped = board_map(obs.board)
    colors = COLORS[:n]
    players = [me if p == obs.seat else RandomPlayer(colors[p]) for p in range(n)]
    assert obs.seat is not None  # a seat's observation, never a spectator's
    me.color = colors[obs.seat]
    game = CatanGame(
        players,
        seed=seed,
        discard_limit=obs.config.discard_limit,
        friendly_robber=obs.config.friendly_robber,
        vps_to_win=obs.config.vp_to_win,
        catan_map=mapped.catan_map,
    )
    state = game.state
    state.players, state.colors = players, colors
    state.color_to_index = {c: i for i, c in enumerate(colors)}
    state.buildings_by_color = {c: defaultdict(list) for c in colors}
    state.player_state = {
        f"P{p}_{key}": value for p in range(n) for key, value in PLAYER_INITIAL_STATE.items()
    }
    _replay_buildings(obs, state, mapped)
    played: list[list[int]] = [[0] * 5 for _ in range(n)]
    for seat, action, _ in obs.history:
        kind = _DEV_OF_PLAY.get(type(action))
        if kind is not None:
            played[seat][kind] += 1
    for p in range(n):
        key = f"P{p}_"
        ps = state.player_state
        ps[key + "VICTORY_POINTS"] = obs.visible_points[p]
        vp_cards = hidden.devs[p][DevCard.VICTORY_POINT]
        ps[key + "ACTUAL_VICTORY_POINTS"] = obs.visible_points[p] + vp_cards
        ps[key + "ROADS_AVAILABLE"] = obs.roads_left[p]
        ps[key + "SETTLEMENTS_AVAILABLE"] = obs.settlements_left[p]
        ps[key + "CITIES_AVAILABLE"] = obs.cities_left[p]
        ps[key + "HAS_ROAD"] = obs.longest_road == p
        ps[key + "HAS_ARMY"] = obs.largest_army == p
        ps[key + "LONGEST_ROAD_LENGTH"] = obs.road_lengths[p]
        on_turn = p == obs.current
        ps[key + "HAS_ROLLED"] = on_turn and obs.rolled
        ps[key + "HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN"] = on_turn and obs.dev_played
        for r, name in enumerate(RESOURCE_NAMES):
            ps[f"{key}{name}_IN_HAND"] = hidden.hands[p][r]
        new = obs.dev_cards_new if p == obs.seat and obs.dev_cards_new else (0,) * 5
        for d, name in enumerate(DEV_NAMES):
            ps[f"{key}{name}_IN_HAND"] = hidden.devs[p][d]
            ps[f"{key}PLAYED_{name}"] = obs.knights[p] if d == DevCard.KNIGHT else played[p][d]
            if d != DevCard.VICTORY_POINT:
                ps[f"{key}{name}_OWNED_AT_START"] = hidden.devs[p][d] - new[d] > 0
    state.resource_freqdeck = _their_bag(obs.bank)
    deck = [DEV_NAMES[d] for d in range(5) for _ in range(hidden.deck[d])]
    random.Random(seed).shuffle(deck)
    state.development_listdeck = deck
    state.board.robber_coordinate = mapped.coordinate_of_hex[obs.robber]
    holder = obs.longest_road
    state.board.road_color = None if holder is None else colors[holder]
    state.board.road_length = 0 if holder is None else obs.road_lengths[holder]
    state.num_turns = obs.turn
    state.current_turn_index, state.current_player_index = obs.current, obs.decider
    _set_prompt(obs, state)
    game.playable_actions = generate_playable_actions(state)
    return game


_DEV_OF_PLAY = {
    A.PlayKnight: DevCard.KNIGHT,
    A.PlayRoadBuilding: DevCard.ROAD_BUILDING,
    A.PlayYearOfPlenty: DevCard.YEAR_OF_PLENTY,
    A.PlayMonopoly: DevCard.MONOPOLY,
}


def _replay_buildings(obs: Observation, state: Any, mapped: BoardMap) -> None:
    """Every settlement, city and road, built in catanatron's board in the history's
    order (set-up settlements as its initial placements)."""
    board, colors = state.board, state.colors
    settlements = [0] * len(colors)
    try:
        for seat, action, _ in obs.history:
            color = colors[seat]
            built = state.buildings_by_color[color]
            if isinstance(action, A.BuildSettlement):
                node = mapped.node_to_theirs[action.node]
                board.build_settlement(color, node, initial_build_phase=settlements[seat] < 2)
                settlements[seat] += 1
                built[SETTLEMENT].append(node)
            elif isinstance(action, A.BuildCity):
                node = mapped.node_to_theirs[action.node]
                board.build_city(color, node)
                built[SETTLEMENT].remove(node)
                built[CITY].append(node)
            elif isinstance(action, A.BuildRoad):
                edge = mapped.edge_to_theirs(action.edge)
                board.build_road(color, edge)
                built[ROAD].append(edge)
    except ValueError as exc:
        raise BridgeError(f"catanatron refused a build of the history: {exc}") from exc
    for node, (owner, kind) in board.buildings.items():
        ours = mapped.node_to_ours[node]
        if obs.node_owner[ours] != colors.index(owner) or obs.node_kind[ours] != (
            1 if kind == SETTLEMENT else 2
        ):
            raise BridgeError(f"the building at our node {ours} differs")


def _set_prompt(obs: Observation, state: Any) -> None:
    """catanatron's prompt and flags for the phase the game waits in."""
    phase = obs.phase
    state.is_initial_build_phase = phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD)
    state.is_discarding = phase is Phase.DISCARD
    state.discard_counts = list(obs.to_discard)
    state.is_road_building = phase is Phase.ROAD_BUILDING
    state.free_roads_available = obs.free_roads if state.is_road_building else 0
    last = obs.history[-1][1] if len(obs.history) else None
    state.is_moving_knight = phase is Phase.MOVE_ROBBER and isinstance(last, A.PlayKnight)
    if phase is Phase.SETUP_SETTLEMENT:
        state.current_prompt = ActionPrompt.BUILD_INITIAL_SETTLEMENT
    elif phase is Phase.SETUP_ROAD:
        state.current_prompt = ActionPrompt.BUILD_INITIAL_ROAD
        built = state.buildings_by_color[state.colors[obs.decider]][SETTLEMENT]
        node = board_map(obs.board).node_to_theirs[obs.setup_node]
        built.remove(node)
        built.append(node)  # the road goes next to this one
    elif phase is Phase.DISCARD:
        state.current_prompt = ActionPrompt.DISCARD
    elif phase is Phase.MOVE_ROBBER:
        state.current_prompt = ActionPrompt.MOVE_ROBBER
    else:
        state.current_prompt = ActionPrompt.PLAY_TURN


def to_ours(action: Any, mapped: BoardMap) -> A.Action:
    """Our action for catanatron's ``action`` (a YEAR_OF_PLENTY of one card takes it twice:
    the caller falls back to a legal action when ours is not)."""
    kind, value = action.action_type, action.value

    def resource(name: str) -> Resource:
        return Resource(RESOURCE_NAMES.index(name))

    if kind is ActionType.ROLL:
        return A.ROLL
    if kind is ActionType.END_TURN:
        return A.END_TURN
    if kind is ActionType.BUILD_SETTLEMENT:
        return A.BuildSettlement(mapped.node_to_ours[value])
    if kind is ActionType.BUILD_CITY:
        return A.BuildCity(mapped.node_to_ours[value])
    if kind is ActionType.BUILD_ROAD:
        return A.BuildRoad(mapped.edge_to_ours(value))
    if kind is ActionType.BUY_DEVELOPMENT_CARD:
        return A.BUY_DEV
    if kind is ActionType.PLAY_KNIGHT_CARD:
        return A.KNIGHT
    if kind is ActionType.PLAY_ROAD_BUILDING:
        return A.ROAD_BUILDING
    if kind is ActionType.PLAY_YEAR_OF_PLENTY:
        first, *rest = value
        return A.PlayYearOfPlenty(resource(first), resource(rest[0] if rest else first))
    if kind is ActionType.PLAY_MONOPOLY:
        return A.PlayMonopoly(resource(value))
    if kind is ActionType.MARITIME_TRADE:
        return A.MaritimeTrade(resource(value[0]), resource(value[4]))
    if kind is ActionType.DISCARD_RESOURCE:
        return A.Discard(resource(value))
    if kind is ActionType.MOVE_ROBBER:
        coordinate, victim = value[0], value[1]
        hex_ = mapped.coordinate_of_hex.index(coordinate)
        return A.MoveRobber(hex_, None if victim is None else COLORS.index(victim))
    raise BridgeError(f"catanatron's {kind} has no counterpart here")
