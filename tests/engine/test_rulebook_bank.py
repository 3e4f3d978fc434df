"""The bank running short (Almanac: Resource Production, last paragraph; 5th edition)."""

from __future__ import annotations

import pytest

from engine import Game, IllegalActionError, Phase, Resource
from engine.actions import PlayYearOfPlenty, RollDice
from tests.support.positions import (
    FOREST_3,
    FOREST_8,
    FOREST_11,
    MOUNTAINS_3,
    MOUNTAINS_8,
    PASTURE_5,
    bag,
    corner,
    hand_of,
    new_game,
    node_at,
    put_city,
    put_settlement,
    set_bank,
    set_devs,
)

MOUNTAINS_8_NORTH = corner(MOUNTAINS_8, "N")
MOUNTAINS_8_SOUTH_WEST = node_at(FOREST_3, MOUNTAINS_8, PASTURE_5)
FOREST_8_NORTH_EAST = node_at(FOREST_11, FOREST_8, MOUNTAINS_3)


def eights(*, shared: bool) -> Game:
    """Seat 0 has a city on Mountains-8; the other Mountains-8 building (a settlement)
    belongs to seat 1 if ``shared``, else to seat 0. Seat 2 has a city on Forest-8."""
    game = new_game(seat=0, phase=Phase.ROLL)
    put_city(game, 0, MOUNTAINS_8_SOUTH_WEST)
    put_settlement(game, 1 if shared else 0, MOUNTAINS_8_NORTH)
    put_city(game, 2, FOREST_8_NORTH_EAST)
    return game


def test_shortage_shared_by_several_players_pays_nobody() -> None:
    """3 ore are owed to two players and the bank has 2: nobody gets ore; lumber is
    paid as usual ("production of other types of resources is not affected")."""
    game = eights(shared=True)
    set_bank(game, ore=2)
    game.apply_unchecked(RollDice(), forced=[6, 2])
    assert hand_of(game, 0) == bag()
    assert hand_of(game, 1) == bag()
    assert hand_of(game, 2) == bag(lumber=2)
    assert game.state.bank == [19, 17, 19, 19, 2]


def test_shortage_of_a_single_player_gets_what_is_left() -> None:
    """5th edition exception: only one player is owed ore (3), the bank has 2: that
    player takes the 2 left."""
    game = eights(shared=False)
    set_bank(game, ore=2)
    game.apply_unchecked(RollDice(), forced=[6, 2])
    assert hand_of(game, 0) == bag(ore=2)
    assert hand_of(game, 2) == bag(lumber=2)
    assert game.state.bank == [19, 17, 19, 19, 0]


def test_exactly_enough_pays_everyone() -> None:
    game = eights(shared=True)
    set_bank(game, ore=3, lumber=2)
    game.apply_unchecked(RollDice(), forced=[6, 2])
    assert hand_of(game, 0) == bag(ore=2)
    assert hand_of(game, 1) == bag(ore=1)
    assert hand_of(game, 2) == bag(lumber=2)
    assert game.state.bank == [19, 0, 19, 19, 0]


def test_empty_bank_pays_a_single_player_nothing() -> None:
    """Only one player is owed lumber and the bank has none: nothing is paid."""
    game = eights(shared=True)
    set_bank(game, lumber=0)
    game.apply_unchecked(RollDice(), forced=[6, 2])
    assert hand_of(game, 2) == bag()
    assert hand_of(game, 0) == bag(ore=2) and hand_of(game, 1) == bag(ore=1)
    assert game.state.bank == [19, 0, 19, 19, 16]


def test_year_of_plenty_only_takes_what_the_bank_holds() -> None:
    """Year of Plenty takes cards "from the supply stacks": not more than are there."""
    game = new_game(seat=0)
    set_devs(game, 0, year_of_plenty=1)
    set_bank(game, brick=0, ore=1)
    legal = game.legal_actions()
    assert PlayYearOfPlenty(Resource.ORE, Resource.ORE) not in legal
    assert PlayYearOfPlenty(Resource.BRICK, Resource.ORE) not in legal
    assert PlayYearOfPlenty(Resource.WOOL, Resource.ORE) in legal
    with pytest.raises(IllegalActionError, match="bank does not hold"):
        game.apply(PlayYearOfPlenty(Resource.ORE, Resource.ORE))
    game.apply(PlayYearOfPlenty(Resource.WOOL, Resource.ORE))
    assert hand_of(game, 0) == bag(wool=1, ore=1)
    assert game.state.bank == [0, 19, 18, 19, 0]
