"""Resource production (Almanac: Cities, Illustration E; Resource Production, Illustration J)."""

from __future__ import annotations

from engine import Game, Phase, Terrain
from engine.actions import RollDice
from tests.support.positions import (
    FIELDS_4,
    FOREST_3,
    FOREST_8,
    FOREST_11,
    HILLS_6,
    MOUNTAINS_3,
    MOUNTAINS_8,
    PASTURE_2,
    PASTURE_5,
    bag,
    corner,
    find_hex,
    hand_of,
    layout_with_swapped_numbers,
    new_game,
    node_at,
    put_city,
    put_settlement,
)

CLAUDIA, BENNY = 0, 1


def illustration_e() -> Game:
    """Claudia (blue) has a settlement and a city on the Mountains-8 hex; Benny (red) has
    a city on the Forest-8 hex. It is Claudia's turn, before her roll."""
    game = new_game(seat=CLAUDIA, phase=Phase.ROLL)
    put_settlement(game, CLAUDIA, corner(MOUNTAINS_8, "N"))
    put_city(game, CLAUDIA, node_at(FOREST_3, MOUNTAINS_8, PASTURE_5))
    put_city(game, BENNY, node_at(FOREST_11, FOREST_8, MOUNTAINS_3))
    return game


def test_illustration_e_settlement_and_city_on_an_eight() -> None:
    """Claudia rolls 8: 3 ore (1 for the settlement, 2 for the city); Benny 2 lumber."""
    game = illustration_e()
    outcome = game.apply_unchecked(RollDice(), forced=[4, 4])
    assert outcome == (4, 4)
    assert hand_of(game, CLAUDIA) == bag(ore=3)
    assert hand_of(game, BENNY) == bag(lumber=2)
    assert hand_of(game, 2) == hand_of(game, 3) == bag()
    assert game.state.bank == [19, 17, 19, 19, 16]
    assert game.phase is Phase.MAIN and game.decider == CLAUDIA


def test_illustration_e_other_numbers_produce_nothing_there() -> None:
    """A roll of 5 pays Claudia's city only for Pasture-5 (2 wool), not Mountains-8."""
    game = illustration_e()
    game.apply_unchecked(RollDice(), forced=[2, 3])
    assert hand_of(game, CLAUDIA) == bag(wool=2)
    assert hand_of(game, BENNY) == bag()


def test_production_pays_players_who_are_not_on_turn() -> None:
    """Rulebook: "The roll applies to all players": Benny rolls 8, Claudia is paid too."""
    game = illustration_e()
    game.state.current = game.state.decider = BENNY
    game.apply_unchecked(RollDice(), forced=[5, 3])
    assert hand_of(game, CLAUDIA) == bag(ore=3)
    assert hand_of(game, BENNY) == bag(lumber=2)


# Illustration J needs two neighbouring "4" hexes: hills and pasture. On the beginner
# map the 4s are apart, so this map swaps the tokens of Hills-6 and Fields-4.
J_LAYOUT = layout_with_swapped_numbers(HILLS_6, FIELDS_4)
HILLS_4 = find_hex(Terrain.HILLS, 4, J_LAYOUT)
PASTURE_4 = find_hex(Terrain.PASTURE, 4, J_LAYOUT)
FIELDS_12 = find_hex(Terrain.FIELDS, 12, J_LAYOUT)
FOREST_11_J = find_hex(Terrain.FOREST, 11, J_LAYOUT)
LOREN, BRIDGET = 0, 1
SETTLEMENT_A = node_at(FIELDS_12, HILLS_4, FOREST_11_J)
SETTLEMENT_B = node_at(PASTURE_2, HILLS_4, PASTURE_4)


def illustration_j(*, a_is_city: bool = False) -> Game:
    """Loren's settlement "A" borders the Hills-4; Bridget's "B" borders Hills-4 and
    Pasture-4. It is Loren's turn, before her roll."""
    game = new_game(seat=LOREN, phase=Phase.ROLL, layout=J_LAYOUT)
    if a_is_city:
        put_city(game, LOREN, SETTLEMENT_A)
    else:
        put_settlement(game, LOREN, SETTLEMENT_A)
    put_settlement(game, BRIDGET, SETTLEMENT_B)
    return game


def test_illustration_j_layout() -> None:
    """The modified map: exactly two hexes carry a 4, the Hills and a Pasture, and they
    are neighbours meeting at "B"."""
    assert [n for n in J_LAYOUT.numbers].count(4) == 2
    assert J_LAYOUT.numbers[HILLS_4] == J_LAYOUT.numbers[PASTURE_4] == 4


def test_illustration_j_one_card_per_hex() -> None:
    """Loren rolls 4: she takes 1 brick; Bridget takes 1 brick and 1 wool."""
    game = illustration_j()
    game.apply_unchecked(RollDice(), forced=[1, 3])
    assert hand_of(game, LOREN) == bag(brick=1)
    assert hand_of(game, BRIDGET) == bag(brick=1, wool=1)
    assert game.state.bank == [17, 19, 18, 19, 19]


def test_illustration_j_city_takes_two() -> None:
    """Rulebook: "If settlement A had been a city, she would have received 2 brick cards"."""
    game = illustration_j(a_is_city=True)
    game.apply_unchecked(RollDice(), forced=[2, 2])
    assert hand_of(game, LOREN) == bag(brick=2)
    assert hand_of(game, BRIDGET) == bag(brick=1, wool=1)
