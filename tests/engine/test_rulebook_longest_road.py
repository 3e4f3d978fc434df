"""The Longest Road card (Almanac: Longest Road, Illustration I and the Special Case)."""

from __future__ import annotations

from engine import Game, Phase
from engine.actions import BuildRoad, BuildSettlement
from tests.support.positions import (
    DESERT,
    FIELDS_4,
    FIELDS_6,
    FIELDS_12,
    FOREST_3,
    FOREST_9,
    FOREST_11,
    HILLS_5,
    HILLS_6,
    HILLS_10,
    MOUNTAINS_3,
    MOUNTAINS_10,
    PASTURE_2,
    PASTURE_4,
    PASTURE_11,
    corner,
    edge_between,
    new_game,
    node_at,
    path,
    put_road_through,
    put_roads,
    put_settlement,
    set_hand,
)

COLEMAN, EMILY, WEN = 0, 1, 2

# Emily's road runs west to east between the top row and the second row of hexes, from
# the north-west corner of Fields-12 to the north corner of Hills-10 (7 pieces).
E0 = corner(FIELDS_12, "NW")
E1 = corner(FIELDS_12, "N")
E2 = node_at(MOUNTAINS_10, FIELDS_12, HILLS_6)
E3 = node_at(MOUNTAINS_10, PASTURE_2, HILLS_6)
E4 = node_at(PASTURE_2, HILLS_6, PASTURE_4)
E5 = node_at(PASTURE_2, FOREST_9, PASTURE_4)
E6 = node_at(FOREST_9, PASTURE_4, HILLS_10)
E7 = corner(HILLS_10, "N")
EMILY_ROAD = (E0, E1, E2, E3, E4, E5, E6, E7)

# Coleman's road comes up to E4 from around the Desert.
AROUND_DESERT = (
    E4,
    node_at(HILLS_6, PASTURE_4, DESERT),
    node_at(PASTURE_4, DESERT, FOREST_3),
    node_at(DESERT, FOREST_3, FIELDS_4),
    node_at(DESERT, MOUNTAINS_3, FIELDS_4),
    node_at(FOREST_11, DESERT, MOUNTAINS_3),
    node_at(HILLS_6, FOREST_11, DESERT),
)
# Another road of Coleman's comes to E5 along the north coast of Mountains-10 and Pasture-2.
NORTH_COAST = (
    corner(MOUNTAINS_10, "NW"),
    corner(MOUNTAINS_10, "N"),
    corner(MOUNTAINS_10, "NE"),
    corner(PASTURE_2, "N"),
    corner(PASTURE_2, "NE"),
    E5,
)
# Wen's road zig-zags along the south coast of Hills-5, Fields-6 and Pasture-11.
SOUTH_COAST = (
    corner(HILLS_5, "SW"),
    corner(HILLS_5, "S"),
    corner(HILLS_5, "SE"),
    corner(FIELDS_6, "S"),
    corner(FIELDS_6, "SE"),
    corner(PASTURE_11, "S"),
    corner(PASTURE_11, "SE"),
)


def emily_with_road(pieces: int = 7, *, players: int = 4) -> Game:
    """Emily has a settlement at E0 and ``pieces`` roads east from it. Coleman's turn."""
    game = new_game(players, seat=COLEMAN)
    put_settlement(game, EMILY, E0)
    put_road_through(game, EMILY, *EMILY_ROAD[: pieces + 1])
    return game


def test_illustration_i_branches_do_not_count() -> None:
    """Emily's continuous road of 7 pieces (A-B) with two branch roads: she has 9 road
    pieces, her road counts 7, and she takes the card (2 points)."""
    game = emily_with_road(7)
    south_branch = edge_between(E2, node_at(FIELDS_12, HILLS_6, FOREST_11))
    north_branch = edge_between(E5, NORTH_COAST[4])
    put_roads(game, EMILY, [south_branch, north_branch])
    s = game.state
    assert s.roads_left[EMILY] == 15 - 9
    assert s.road_len[EMILY] == 7
    assert s.longest_road == EMILY
    assert s.public_vp[EMILY] == 1 + 2
    assert game.observe(None).road_lengths == (0, 7, 0, 0)


def test_first_to_five_pieces_takes_the_card() -> None:
    """Four pieces are not enough; the fifth continuous piece takes the card."""
    game = new_game(seat=EMILY)
    put_settlement(game, EMILY, E0)
    set_hand(game, EMILY, brick=5, lumber=5)
    for i, edge in enumerate(path(*EMILY_ROAD[:6])):
        assert game.state.longest_road == -1, i
        game.apply(BuildRoad(edge))
        assert game.state.road_len[EMILY] == i + 1
    assert game.state.longest_road == EMILY
    assert game.state.public_vp[EMILY] == 3
    assert game.observe(COLEMAN).longest_road == EMILY


def test_a_tie_does_not_take_the_card_a_longer_road_does() -> None:
    """Coleman matches Emily's 5 pieces: she keeps the card. His 6th piece is longer:
    he takes the card and its 2 points (a 4-point swing)."""
    game = emily_with_road(5)
    put_settlement(game, COLEMAN, AROUND_DESERT[5])
    put_road_through(game, COLEMAN, *AROUND_DESERT[:6])
    s = game.state
    assert s.road_len[COLEMAN] == s.road_len[EMILY] == 5
    assert s.longest_road == EMILY
    set_hand(game, COLEMAN, brick=1, lumber=1)
    game.apply(BuildRoad(edge_between(AROUND_DESERT[5], AROUND_DESERT[6])))
    assert s.road_len[COLEMAN] == 6
    assert s.longest_road == COLEMAN
    assert s.public_vp[COLEMAN] == 1 + 2 and s.public_vp[EMILY] == 1


def test_illustration_i_breaking_a_road_with_a_settlement() -> None:
    """Coleman builds a settlement on "C" (E4), which breaks Emily's 7-road into 4 and 3.
    Emily must give the card to Coleman, whose road has 5 pieces."""
    game = emily_with_road(7)
    put_settlement(game, COLEMAN, AROUND_DESERT[5])
    put_road_through(game, COLEMAN, *AROUND_DESERT[:6])
    assert game.state.longest_road == EMILY
    set_hand(game, COLEMAN, brick=1, lumber=1, wool=1, grain=1)
    game.apply(BuildSettlement(E4))
    s = game.state
    assert s.road_len[EMILY] == 4
    assert s.road_len[COLEMAN] == 5
    assert s.longest_road == COLEMAN
    assert s.public_vp[EMILY] == 1
    assert s.public_vp[COLEMAN] == 2 + 2


def test_special_case_broken_but_still_tied_keeps_the_card() -> None:
    """Coleman settles E5: Emily's road drops to 5 (E0-E5), tied with Coleman's 5: "you
    still keep the Longest Road card"."""
    game = emily_with_road(7)
    put_settlement(game, COLEMAN, NORTH_COAST[0])
    put_road_through(game, COLEMAN, *NORTH_COAST)
    set_hand(game, COLEMAN, brick=1, lumber=1, wool=1, grain=1)
    game.apply(BuildSettlement(E5))
    s = game.state
    assert s.road_len[EMILY] == 5
    assert s.road_len[COLEMAN] == 5
    assert s.longest_road == EMILY
    assert s.public_vp[EMILY] == 3 and s.public_vp[COLEMAN] == 2


def test_special_case_two_others_tie_card_is_set_aside() -> None:
    """Emily (7) holds the card; Coleman and Wen have 6 each. Coleman's settlement on E4
    leaves Emily with 4: the new longest is tied, so the card is set aside."""
    game = emily_with_road(7)
    put_settlement(game, COLEMAN, AROUND_DESERT[6])
    put_road_through(game, COLEMAN, *AROUND_DESERT)
    put_settlement(game, WEN, SOUTH_COAST[0])
    put_road_through(game, WEN, *SOUTH_COAST)
    s = game.state
    assert (s.road_len[COLEMAN], s.road_len[WEN], s.longest_road) == (6, 6, EMILY)
    set_hand(game, COLEMAN, brick=1, lumber=1, wool=1, grain=1)
    game.apply(BuildSettlement(E4))
    assert s.road_len == [6, 4, 6, 0]
    assert s.longest_road == -1
    assert s.public_vp == [2, 1, 1, 0]
    assert game.observe(EMILY).longest_road is None


def test_special_case_nobody_has_five_card_is_set_aside() -> None:
    """Emily (6 pieces) holds the card; Coleman breaks it into 4 and 2: nobody has a 5+
    road, so the card is set aside."""
    game = emily_with_road(6)
    assert game.state.longest_road == EMILY
    put_settlement(game, COLEMAN, AROUND_DESERT[2])
    put_road_through(game, COLEMAN, *AROUND_DESERT[:3])
    set_hand(game, COLEMAN, brick=1, lumber=1, wool=1, grain=1)
    game.apply(BuildSettlement(E4))
    s = game.state
    assert s.road_len[EMILY] == 4
    assert s.longest_road == -1
    assert s.public_vp[EMILY] == 1


def test_set_aside_card_returns_to_a_single_longest_road() -> None:
    """Rulebook: "The card comes into play again when only 1 player has the longest road": after
    the tie above, Wen's 7th piece takes it."""
    game = emily_with_road(7)
    put_settlement(game, COLEMAN, AROUND_DESERT[6])
    put_road_through(game, COLEMAN, *AROUND_DESERT)
    put_settlement(game, WEN, SOUTH_COAST[0])
    put_road_through(game, WEN, *SOUTH_COAST)
    set_hand(game, COLEMAN, brick=1, lumber=1, wool=1, grain=1)
    game.apply(BuildSettlement(E4))
    assert game.state.longest_road == -1
    game.state.current = game.state.decider = WEN
    game.state.phase = Phase.MAIN
    set_hand(game, WEN, brick=1, lumber=1)
    game.apply(BuildRoad(edge_between(SOUTH_COAST[-1], corner(PASTURE_11, "NE"))))
    assert game.state.road_len[WEN] == 7
    assert game.state.longest_road == WEN
    assert game.state.public_vp[WEN] == 3
