"""The set-up phase (Almanac: Set-up Phase, Round One and Round Two, Illustration N)."""

from __future__ import annotations

import pytest

from engine import BoardSetup, Game, IllegalActionError, Phase, RulesConfig
from engine.actions import BuildRoad, BuildSettlement
from tests.support.positions import (
    BEGINNER,
    DESERT,
    FIELDS_4,
    FIELDS_12,
    FOREST_3,
    FOREST_8,
    FOREST_11,
    HILLS_5,
    HILLS_6,
    HILLS_10,
    MOUNTAINS_3,
    MOUNTAINS_10,
    PASTURE_2,
    PASTURE_4,
    PASTURE_5,
    PASTURE_11,
    TOPOLOGY,
    bag,
    corner,
    hand_of,
    node_at,
    snapshot,
)


def new_setup(players: int = 4) -> Game:
    config = RulesConfig(players=players, board=BoardSetup.BEGINNER)
    return Game.new(config, seed=5, layout=BEGINNER)


def first_road(game: Game, node: int) -> BuildRoad:
    return BuildRoad(TOPOLOGY.node_edges[node][0])


# Round one, seats 0..3; round two, seats 3..0.
ROUND_ONE = (
    node_at(FIELDS_12, HILLS_6, FOREST_11),
    node_at(PASTURE_4, HILLS_10, FOREST_3),
    node_at(FOREST_8, MOUNTAINS_3, HILLS_5),
    node_at(FIELDS_4, PASTURE_5, PASTURE_11),
)
ROUND_TWO = (
    node_at(FOREST_11, DESERT, MOUNTAINS_3),  # seat 3: lumber, ore (the desert yields nothing)
    corner(MOUNTAINS_10, "N"),  # seat 2: a coast site on one hex: ore
    corner(HILLS_10, "N"),  # seat 1: Forest-9 and Hills-10: lumber, brick
    node_at(MOUNTAINS_10, PASTURE_2, HILLS_6),  # seat 0: ore, wool, brick
)


def play_setup(game: Game) -> list[int]:
    """Place the settlements above with the first free road at each; return who placed
    each settlement, in order."""
    order = []
    for node in ROUND_ONE + ROUND_TWO:
        assert game.phase is Phase.SETUP_SETTLEMENT
        order.append(game.decider)
        game.apply(BuildSettlement(node))
        assert game.phase is Phase.SETUP_ROAD
        game.apply(first_road(game, node))
    return order


def test_snake_order_and_first_turn() -> None:
    """Round one clockwise from the starting player, round two counter-clockwise, so the
    starting player places last and then begins the game."""
    game = new_setup()
    assert play_setup(game) == [0, 1, 2, 3, 3, 2, 1, 0]
    assert game.phase is Phase.ROLL
    assert game.current_seat == game.decider == 0
    assert game.state.turn == 1
    assert game.state.settlements_left == [3, 3, 3, 3]
    assert game.state.roads_left == [13, 13, 13, 13]
    assert game.state.public_vp == [2, 2, 2, 2]


def test_snake_order_three_players() -> None:
    game = new_setup(players=3)
    order = []
    for node in ROUND_ONE[:3] + ROUND_TWO[1:]:
        order.append(game.decider)
        game.apply(BuildSettlement(node))
        game.apply(first_road(game, node))
    assert order == [0, 1, 2, 2, 1, 0]
    assert game.phase is Phase.ROLL and game.current_seat == 0


def test_only_the_second_settlement_yields_one_card_per_terrain_hex() -> None:
    """Illustration N: after the second settlement, one resource card for each adjacent
    terrain hex (none for the desert, none for the first settlement)."""
    game = new_setup()
    for node in ROUND_ONE:
        game.apply(BuildSettlement(node))
        game.apply(first_road(game, node))
    assert [sum(h) for h in game.state.hands] == [0, 0, 0, 0]
    for node in ROUND_TWO:
        game.apply(BuildSettlement(node))
        game.apply(first_road(game, node))
    assert hand_of(game, 0) == bag(brick=1, wool=1, ore=1)
    assert hand_of(game, 1) == bag(brick=1, lumber=1)
    assert hand_of(game, 2) == bag(ore=1)
    assert hand_of(game, 3) == bag(lumber=1, ore=1)
    assert game.state.bank == [17, 17, 18, 19, 16]


def test_set_up_road_must_touch_the_settlement_just_placed() -> None:
    """Rulebook: "Places a road adjacent to this settlement"; in round two the road "must attach
    to the second settlement", not to the first."""
    game = new_setup()
    game.apply(BuildSettlement(ROUND_ONE[0]))
    away = TOPOLOGY.node_edges[ROUND_ONE[1]][0]
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="must touch the settlement just placed"):
        game.apply(BuildRoad(away))
    assert snapshot(game) == before
    roads = [a.edge for a in game.legal_actions() if isinstance(a, BuildRoad)]
    assert sorted(roads) == sorted(TOPOLOGY.node_edges[ROUND_ONE[0]])
    game.apply(first_road(game, ROUND_ONE[0]))
    for node in ROUND_ONE[1:] + ROUND_TWO[:3]:
        game.apply(BuildSettlement(node))
        game.apply(first_road(game, node))
    game.apply(BuildSettlement(ROUND_TWO[3]))
    next_to_first = TOPOLOGY.node_edges[ROUND_ONE[0]][1]
    with pytest.raises(IllegalActionError, match="must touch the settlement just placed"):
        game.apply(BuildRoad(next_to_first))


def test_set_up_allows_no_other_action() -> None:
    """During set-up only the settlement and then its road may be placed."""
    game = new_setup()
    with pytest.raises(IllegalActionError, match="not allowed in phase setup_settlement"):
        game.apply(BuildRoad(0))
    game.apply(BuildSettlement(ROUND_ONE[0]))
    with pytest.raises(IllegalActionError, match="not allowed in phase setup_road"):
        game.apply(BuildSettlement(ROUND_ONE[1]))
