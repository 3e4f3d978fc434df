"""Build concrete positions on the beginner map without playing a whole game.

Positions are described in terms of hexes, so a test reads like the rulebook: "the
intersection of the Mountains-10, Pasture-2 and Hills-6 hexes" is
``node_at(MOUNTAINS_10, PASTURE_2, HILLS_6)``. Buildings and roads are placed through the
engine's own placement functions (``engine.rules.apply.place_settlement`` and
``place_road``), which keep the distance-rule counts, buildable paths, harbors and the
Longest Road card consistent.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

from engine import BoardSetup, Game, Phase, RulesConfig, Terrain
from engine.board.layouts import BoardLayout, beginner_layout
from engine.board.topology import Topology, standard_topology
from engine.rules.apply import place_city, place_road, place_settlement
from engine.rules.scoring import update_largest_army
from engine.state import GameState
from engine.types import BANK_PER_RESOURCE, Bag

TOPOLOGY: Topology = standard_topology()
BEGINNER: BoardLayout = beginner_layout()


def find_hex(terrain: Terrain, number: int, layout: BoardLayout = BEGINNER) -> int:
    """The hex carrying ``terrain`` and number token ``number`` (0 for the desert)."""
    for h, (t, n) in enumerate(zip(layout.terrains, layout.numbers, strict=True)):
        if t is terrain and n == number:
            return h
    raise ValueError(f"no {terrain.label}-{number} hex on this map")


# The 19 hexes of the "Starting Set-up for Beginners" map, named as printed.
MOUNTAINS_10 = find_hex(Terrain.MOUNTAINS, 10)
PASTURE_2 = find_hex(Terrain.PASTURE, 2)
FOREST_9 = find_hex(Terrain.FOREST, 9)
FIELDS_12 = find_hex(Terrain.FIELDS, 12)
HILLS_6 = find_hex(Terrain.HILLS, 6)
PASTURE_4 = find_hex(Terrain.PASTURE, 4)
HILLS_10 = find_hex(Terrain.HILLS, 10)
FIELDS_9 = find_hex(Terrain.FIELDS, 9)
FOREST_11 = find_hex(Terrain.FOREST, 11)
DESERT = find_hex(Terrain.DESERT, 0)
FOREST_3 = find_hex(Terrain.FOREST, 3)
MOUNTAINS_8 = find_hex(Terrain.MOUNTAINS, 8)
FOREST_8 = find_hex(Terrain.FOREST, 8)
MOUNTAINS_3 = find_hex(Terrain.MOUNTAINS, 3)
FIELDS_4 = find_hex(Terrain.FIELDS, 4)
PASTURE_5 = find_hex(Terrain.PASTURE, 5)
HILLS_5 = find_hex(Terrain.HILLS, 5)
FIELDS_6 = find_hex(Terrain.FIELDS, 6)
PASTURE_11 = find_hex(Terrain.PASTURE, 11)

_CORNERS = ("N", "NE", "SE", "S", "SW", "NW")
_SIDES = ("NE", "E", "SE", "SW", "W", "NW")


# --- finding intersections and paths -------------------------------------------------


def node_at(*hexes: int) -> int:
    """The single intersection shared by all ``hexes`` (3 inland hexes; for the coast,
    where fewer hexes meet, use :func:`corner`)."""
    common = set(TOPOLOGY.hex_nodes[hexes[0]])
    for h in hexes[1:]:
        common &= set(TOPOLOGY.hex_nodes[h])
    if len(common) != 1:
        raise ValueError(f"hexes {hexes} share {len(common)} intersections, not 1")
    return common.pop()


def corner(hex_: int, name: str) -> int:
    """A corner of a hex by compass name: N, NE, SE, S, SW, NW (pointy-top hexes)."""
    return TOPOLOGY.hex_nodes[hex_][_CORNERS.index(name)]


def side(hex_: int, name: str) -> int:
    """A side (path) of a hex by compass name: NE, E, SE, SW, W, NW."""
    return TOPOLOGY.hex_edges[hex_][_SIDES.index(name)]


def edge_between(a: int, b: int) -> int:
    """The path joining neighbouring intersections ``a`` and ``b``."""
    return TOPOLOGY.edge_between(a, b)


def shared_side(h1: int, h2: int) -> int:
    """The path between two neighbouring hexes."""
    common = set(TOPOLOGY.hex_edges[h1]) & set(TOPOLOGY.hex_edges[h2])
    if len(common) != 1:
        raise ValueError(f"hexes {h1} and {h2} are not neighbours")
    return common.pop()


def path(*nodes: int) -> list[int]:
    """The paths of a road running through ``nodes`` in order."""
    return [edge_between(a, b) for a, b in pairwise(nodes)]


def hexes_of(node: int) -> tuple[int, ...]:
    return TOPOLOGY.node_hexes[node]


def neighbours(node: int) -> tuple[int, ...]:
    return TOPOLOGY.node_neighbours[node]


# --- layouts -------------------------------------------------------------------------


def layout_with_swapped_numbers(h1: int, h2: int, layout: BoardLayout = BEGINNER) -> BoardLayout:
    """The beginner map with the number tokens of two hexes exchanged."""
    numbers = list(layout.numbers)
    numbers[h1], numbers[h2] = numbers[h2], numbers[h1]
    return BoardLayout(layout.terrains, tuple(numbers), layout.harbors)


# --- making a game -------------------------------------------------------------------


def new_game(
    players: int = 4,
    *,
    seat: int = 0,
    phase: Phase = Phase.MAIN,
    layout: BoardLayout = BEGINNER,
    seed: int = 1,
    **options: Any,
) -> Game:
    """An empty board past set-up: it is ``seat``'s turn (turn 1), in ``phase`` (ROLL:
    before rolling; MAIN: after a roll that produced nothing)."""
    config = RulesConfig(players=players, board=BoardSetup.BEGINNER, **options)
    game = Game.new(config, seed=seed, layout=layout)
    s = game.state
    s.turn = 1
    s.setup_index = 2 * players
    set_turn(game, seat, phase)
    return game


def refresh(game: Game) -> None:
    """Forget the cached legal actions and public view after editing the state directly."""
    game._legal = None
    game.state.public_view = None


def set_turn(game: Game, seat: int, phase: Phase = Phase.MAIN) -> None:
    """Make it ``seat``'s turn, before rolling (ROLL) or after it (MAIN)."""
    s = game.state
    s.current = s.decider = seat
    s.phase = phase
    s.rolled = phase is not Phase.ROLL
    s.dice = None if phase is Phase.ROLL else (1, 2)
    s.dev_played = s.built = False
    s.devs_new = [0] * 5
    s.offers_made = 0
    s.offer = None
    s.responses = [None] * s.n
    refresh(game)


def put_settlement(game: Game, seat: int, node: int) -> None:
    """A settlement for ``seat`` (through ``place_settlement``; no cost, no road needed)."""
    s = game.state
    assert s.node_owner[node] == -1, f"intersection {node} is taken"
    place_settlement(s, seat, node)
    refresh(game)


def put_city(game: Game, seat: int, node: int) -> None:
    """A city for ``seat``: a settlement, then upgraded through ``place_city`` (the
    settlement piece goes back to the supply)."""
    s = game.state
    if s.node_owner[node] == -1:
        place_settlement(s, seat, node)
    assert s.node_owner[node] == seat and s.node_kind[node] == 1
    place_city(s, seat, node)
    refresh(game)


def put_road(game: Game, seat: int, edge: int) -> None:
    """A road for ``seat`` (through ``place_road``: Longest Road is updated)."""
    s = game.state
    assert s.edge_owner[edge] == -1, f"path {edge} is taken"
    place_road(s, seat, edge)
    refresh(game)


def put_roads(game: Game, seat: int, edges: Iterable[int]) -> None:
    for e in edges:
        put_road(game, seat, e)


def put_road_through(game: Game, seat: int, *nodes: int) -> list[int]:
    """Roads along ``nodes`` in order; returns their paths."""
    edges = path(*nodes)
    put_roads(game, seat, edges)
    return edges


def bag(brick: int = 0, lumber: int = 0, wool: int = 0, grain: int = 0, ore: int = 0) -> Bag:
    return (brick, lumber, wool, grain, ore)


def hand_of(game: Game, seat: int) -> Bag:
    b, lu, w, g, o = game.state.hands[seat]
    return (b, lu, w, g, o)


def set_hand(
    game: Game,
    seat: int,
    brick: int = 0,
    lumber: int = 0,
    wool: int = 0,
    grain: int = 0,
    ore: int = 0,
) -> None:
    """Set a hand; the bank becomes 19 of each resource minus all hands."""
    s = game.state
    s.hands[seat] = [brick, lumber, wool, grain, ore]
    for r in range(5):
        s.bank[r] = BANK_PER_RESOURCE - sum(h[r] for h in s.hands)
        assert s.bank[r] >= 0, "more cards in hands than exist"
    refresh(game)


def set_bank(
    game: Game,
    brick: int = 19,
    lumber: int = 19,
    wool: int = 19,
    grain: int = 19,
    ore: int = 19,
) -> None:
    game.state.bank = [brick, lumber, wool, grain, ore]
    refresh(game)


def set_devs(
    game: Game,
    seat: int,
    knight: int = 0,
    road_building: int = 0,
    year_of_plenty: int = 0,
    monopoly: int = 0,
    victory_point: int = 0,
    *,
    bought_this_turn: bool = False,
) -> None:
    """Give ``seat`` unplayed development cards (taken from the deck). With
    ``bought_this_turn`` they count as bought in the current turn."""
    s = game.state
    cards = [knight, road_building, year_of_plenty, monopoly, victory_point]
    for k in range(5):
        s.deck[k] += s.devs[seat][k] - cards[k]
        assert s.deck[k] >= 0, "more development cards than the deck holds"
    s.devs[seat] = cards
    if bought_this_turn:
        s.devs_new = cards[:]
    refresh(game)


def set_knights(game: Game, seat: int, played: int) -> None:
    """Knights ``seat`` has already played (Largest Army is updated)."""
    s = game.state
    s.knights[seat] = played
    update_largest_army(s, seat)
    refresh(game)


def move_robber(game: Game, hex_: int) -> None:
    game.state.robber = hex_
    refresh(game)


def snapshot(game: Game) -> dict[str, Any]:
    """A deep copy of every field of the state (the chance streams by their positions)."""
    s = game.state
    out: dict[str, Any] = {}
    for name in GameState.__slots__:
        value = getattr(s, name)
        if name == "chance":
            out[name] = value.position()
        elif name == "board":
            out[name] = id(value)
        else:
            out[name] = copy.deepcopy(value)
    return out


def total_points(game: Game, seat: int) -> int:
    return game.state.total_vp(seat)


def apply_all(game: Game, actions: Sequence[Any]) -> None:
    for action in actions:
        game.apply(action)


# --- the Almanac's Siobhán (Victory Points): 8 visible points ----------------------

SIOBHAN = 0
"""The seat of the Almanac's Siobhán example."""
SIOBHAN_ROAD = (
    corner(FIELDS_12, "NW"),
    corner(FIELDS_12, "N"),
    node_at(MOUNTAINS_10, FIELDS_12, HILLS_6),
    node_at(MOUNTAINS_10, PASTURE_2, HILLS_6),
    node_at(PASTURE_2, HILLS_6, PASTURE_4),
    node_at(PASTURE_2, FOREST_9, PASTURE_4),
)


def siobhan_position(*, vp_cards: int = 2, seat_on_turn: int = 3) -> Game:
    """The Almanac's Siobhán (seat 0): 2 settlements, 2 cities, the Longest Road (5
    pieces) = 8 visible points, plus ``vp_cards`` hidden victory point cards (bought on
    earlier turns); it is ``seat_on_turn``'s turn, after rolling."""
    game = new_game(seat=seat_on_turn, phase=Phase.MAIN)
    put_settlement(game, SIOBHAN, SIOBHAN_ROAD[0])
    put_settlement(game, SIOBHAN, SIOBHAN_ROAD[2])
    put_city(game, SIOBHAN, SIOBHAN_ROAD[4])
    put_city(game, SIOBHAN, corner(HILLS_10, "N"))
    put_road_through(game, SIOBHAN, *SIOBHAN_ROAD)
    set_devs(game, SIOBHAN, victory_point=vp_cards)
    assert game.state.longest_road == SIOBHAN
    assert game.state.public_vp[SIOBHAN] == 8
    return game
