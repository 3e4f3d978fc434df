"""Piece limits (Almanac: Build; "15 roads, 5 settlements, and 4 cities"; Cities)."""

from __future__ import annotations

import pytest

from engine import Game, IllegalActionError, Phase
from engine.actions import BuildCity, BuildRoad, BuildSettlement, PlayRoadBuilding
from tests.support.positions import (
    DESERT,
    FOREST_11,
    HILLS_5,
    HILLS_6,
    MOUNTAINS_3,
    MOUNTAINS_10,
    PASTURE_2,
    PASTURE_4,
    PASTURE_11,
    TOPOLOGY,
    bag,
    corner,
    hand_of,
    new_game,
    node_at,
    put_city,
    put_road_through,
    put_roads,
    put_settlement,
    set_devs,
    set_hand,
    snapshot,
)

HOME = node_at(MOUNTAINS_10, PASTURE_2, HILLS_6)
# Every side of Hills-6, Pasture-4 and the Desert: 6 + 5 + 4 = 15 paths.
BLOCK = sorted({e for h in (HILLS_6, PASTURE_4, DESERT) for e in TOPOLOGY.hex_edges[h]})


def test_block_is_fifteen_paths() -> None:
    assert len(BLOCK) == 15


def test_fifteen_roads_is_the_limit() -> None:
    """With all 15 roads on the board no more can be built, though paths are free."""
    game = new_game(seat=0)
    put_settlement(game, 0, HOME)
    put_roads(game, 0, BLOCK)
    set_hand(game, 0, brick=1, lumber=1)
    s = game.state
    assert s.roads_left[0] == 0
    assert s.buildable[0], "free paths touch the network"
    assert not any(isinstance(a, BuildRoad) for a in game.legal_actions())
    free = min(s.buildable[0])
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="piece limit"):
        game.apply(BuildRoad(free))
    assert snapshot(game) == before


def test_road_building_with_one_road_left_places_one() -> None:
    """Road Building places the roads "as if you had just built them": one piece left,
    one road."""
    game = new_game(seat=0)
    put_settlement(game, 0, HOME)
    put_roads(game, 0, BLOCK[:14])
    set_devs(game, 0, road_building=1)
    assert PlayRoadBuilding() in game.legal_actions()
    game.apply(PlayRoadBuilding())
    game.apply(BuildRoad(BLOCK[14]))
    assert game.state.roads_left[0] == 0
    assert game.phase is Phase.MAIN


def test_no_road_building_without_road_pieces() -> None:
    game = new_game(seat=0)
    put_settlement(game, 0, HOME)
    put_roads(game, 0, BLOCK)
    set_devs(game, 0, road_building=1)
    assert PlayRoadBuilding() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="no road you could place"):
        game.apply(PlayRoadBuilding())


# Five settlements: the N, SE and SW corners of Hills-6 and two on the south coast; a
# road from the S corner of Hills-6 leads to a free site next to the Desert.
SETTLEMENTS = (
    corner(HILLS_6, "N"),
    corner(HILLS_6, "SE"),
    corner(HILLS_6, "SW"),
    corner(PASTURE_11, "S"),
    corner(HILLS_5, "SW"),
)
FREE_SITE = node_at(FOREST_11, DESERT, MOUNTAINS_3)


def five_settlements() -> Game:
    game = new_game(seat=0)
    for node in SETTLEMENTS:
        put_settlement(game, 0, node)
    put_roads(game, 0, TOPOLOGY.hex_edges[HILLS_6])
    put_road_through(game, 0, corner(HILLS_6, "S"), FREE_SITE)
    set_hand(game, 0, brick=1, lumber=1, wool=1, grain=3, ore=3)
    return game


def test_five_settlements_is_the_limit_until_a_city_returns_one() -> None:
    """Rulebook: "If you have built all 5 of your settlements, you must upgrade 1 of your
    settlements to a city before you can build another settlement"."""
    game = five_settlements()
    s = game.state
    assert s.settlements_left[0] == 0
    assert s.public_vp[0] == 5 + 2  # and the Longest Road (7 pieces)
    assert BuildSettlement(FREE_SITE) not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="piece limit"):
        game.apply(BuildSettlement(FREE_SITE))
    assert snapshot(game) == before
    game.apply(BuildCity(SETTLEMENTS[0]))
    assert (s.settlements_left[0], s.cities_left[0], s.public_vp[0]) == (1, 3, 8)
    assert s.node_kind[SETTLEMENTS[0]] == 2
    assert hand_of(game, 0) == bag(brick=1, lumber=1, wool=1, grain=1)
    assert s.bank == [18, 18, 18, 18, 19]
    game.apply(BuildSettlement(FREE_SITE))
    assert (s.settlements_left[0], s.public_vp[0]) == (0, 9)


def test_four_cities_is_the_limit() -> None:
    game = new_game(seat=0)
    for node in SETTLEMENTS[:4]:
        put_city(game, 0, node)
    put_settlement(game, 0, SETTLEMENTS[4])
    set_hand(game, 0, grain=2, ore=3)
    s = game.state
    assert (s.cities_left[0], s.settlements_left[0], s.public_vp[0]) == (0, 4, 9)
    assert not any(isinstance(a, BuildCity) for a in game.legal_actions())
    with pytest.raises(IllegalActionError, match="no cities left"):
        game.apply(BuildCity(SETTLEMENTS[4]))


def test_city_only_replaces_own_settlement() -> None:
    """Rulebook: "You cannot build a city directly": only on one of your own settlements."""
    game = new_game(seat=0)
    put_settlement(game, 0, SETTLEMENTS[0])
    put_settlement(game, 1, SETTLEMENTS[1])
    set_hand(game, 0, grain=2, ore=3)
    for node in (SETTLEMENTS[1], FREE_SITE):
        with pytest.raises(IllegalActionError, match="replaces one of your settlements"):
            game.apply(BuildCity(node))
    assert [a for a in game.legal_actions() if isinstance(a, BuildCity)] == [
        BuildCity(SETTLEMENTS[0])
    ]
