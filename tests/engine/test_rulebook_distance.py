"""The Distance Rule (Almanac, Illustrations F and M) and where settlements may go."""

from __future__ import annotations

import pytest

from engine import BoardSetup, Game, IllegalActionError, Phase, RulesConfig
from engine.actions import BuildSettlement
from tests.support.positions import (
    BEGINNER,
    DESERT,
    FIELDS_12,
    FOREST_11,
    HILLS_6,
    MOUNTAINS_10,
    PASTURE_2,
    PASTURE_4,
    corner,
    neighbours,
    new_game,
    node_at,
    put_road_through,
    put_settlement,
    set_hand,
    snapshot,
)

BLUE, RED = 0, 1

# Coleman (blue) has a settlement where Fields-12, Hills-6 and Forest-11 meet, and a road
# running north-east from it over Hills-6 and on to the Pasture-2/Pasture-4 corner.
HOME = node_at(FIELDS_12, HILLS_6, FOREST_11)
A1 = node_at(MOUNTAINS_10, FIELDS_12, HILLS_6)
B1 = node_at(MOUNTAINS_10, PASTURE_2, HILLS_6)
C = node_at(PASTURE_2, HILLS_6, PASTURE_4)
NEXT_TO_C = node_at(HILLS_6, PASTURE_4, DESERT)
# Red's settlement "A": the coast corner of Mountains-10 and Pasture-2, next to B1.
RED_A = corner(MOUNTAINS_10, "NE")


def coleman_position() -> Game:
    """Illustration F: Blue's road passes intersections next to an "A" settlement ("B")
    and reaches a free intersection two steps from every building ("C")."""
    game = new_game(seat=BLUE)
    put_settlement(game, BLUE, HOME)
    put_road_through(game, BLUE, HOME, A1, B1, C)
    put_settlement(game, RED, RED_A)
    set_hand(game, BLUE, brick=1, lumber=1, wool=1, grain=1)
    return game


def test_position_is_as_described() -> None:
    """The intersections named above are neighbours in the right order."""
    assert A1 in neighbours(HOME) and B1 in neighbours(A1) and C in neighbours(B1)
    assert RED_A in neighbours(B1)
    assert NEXT_TO_C in neighbours(C)


@pytest.mark.parametrize(("node", "why"), [(B1, "next to Red's settlement"), (A1, "next to own")])
def test_settlement_next_to_any_building_is_rejected(node: int, why: str) -> None:
    """Illustration F: Coleman cannot build on the intersections marked "B" (next to a
    settlement of any colour, even his own); the rejection names the distance rule and
    leaves the state untouched."""
    game = coleman_position()
    assert BuildSettlement(node) not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="distance rule"):
        game.apply(BuildSettlement(node))
    assert snapshot(game) == before, why


def test_settlement_two_steps_away_on_own_road_is_legal() -> None:
    """Illustration F: he can build at intersection "C": it costs 1 brick, lumber, wool
    and grain and scores 1 point."""
    game = coleman_position()
    assert BuildSettlement(C) in game.legal_actions()
    game.apply(BuildSettlement(C))
    s = game.state
    assert (s.node_owner[C], s.node_kind[C]) == (BLUE, 1)
    assert s.hands[BLUE] == [0, 0, 0, 0, 0]
    assert s.bank == [19, 19, 19, 19, 19]
    assert s.public_vp == [2, 1, 0, 0]
    assert s.settlements_left[BLUE] == 3


def test_free_intersection_without_own_road_is_rejected() -> None:
    """Illustration M, "C": a free intersection that no blue road leads to."""
    game = coleman_position()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="connect to one of your roads"):
        game.apply(BuildSettlement(NEXT_TO_C))
    assert snapshot(game) == before


def test_distance_rule_applies_to_buildings_of_every_owner_after_a_new_one() -> None:
    """After Coleman settles "C", its three neighbours are closed to everybody."""
    game = coleman_position()
    game.apply(BuildSettlement(C))
    s = game.state
    for node in neighbours(C):
        assert s.blocked[node] >= 1, node
        assert BuildSettlement(node) not in game.legal_actions()


def test_occupied_intersection_is_rejected() -> None:
    """Only one building per intersection."""
    game = coleman_position()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="already built on"):
        game.apply(BuildSettlement(HOME))
    assert snapshot(game) == before


def test_distance_rule_in_set_up() -> None:
    """Set-up: "when placing all other settlements, the Distance Rule always applies"."""
    game = Game.new(RulesConfig(board=BoardSetup.BEGINNER), seed=3, layout=BEGINNER)
    game.apply(BuildSettlement(C))
    game.apply(game.legal_actions()[0])  # its road
    assert game.phase is Phase.SETUP_SETTLEMENT and game.decider == 1
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="distance rule"):
        game.apply(BuildSettlement(NEXT_TO_C))
    assert snapshot(game) == before
    legal = game.legal_actions()
    assert BuildSettlement(NEXT_TO_C) not in legal and BuildSettlement(C) not in legal
    assert len(legal) == 54 - 4
