"""Rolling a 7 and the robber (Almanac: Robber, Rolling a "7", Illustration L)."""

from __future__ import annotations

import pytest

from engine import Game, IllegalActionError, Phase, Resource
from engine.actions import Discard, MoveRobber, RollDice
from tests.support.positions import (
    DESERT,
    FIELDS_9,
    FOREST_3,
    FOREST_8,
    FOREST_11,
    HILLS_6,
    MOUNTAINS_3,
    MOUNTAINS_8,
    PASTURE_5,
    bag,
    corner,
    hand_of,
    move_robber,
    new_game,
    node_at,
    put_city,
    put_settlement,
    set_hand,
    snapshot,
)

ALEX, LARRY, WILL, QUINN = 0, 1, 2, 3
WILL_HOME = node_at(FIELDS_9, FOREST_11, FOREST_8)


def alex_rolls_seven() -> Game:
    """Alex holds 6 cards, Larry 8, Will 11 (the rulebook example) and Quinn 9. Will has
    a settlement on Forest-11. Alex rolls a 7."""
    game = new_game(seat=ALEX, phase=Phase.ROLL)
    set_hand(game, ALEX, brick=2, lumber=2, wool=2)
    set_hand(game, LARRY, brick=2, lumber=2, grain=2, ore=2)
    set_hand(game, WILL, brick=3, lumber=3, wool=3, grain=2)
    set_hand(game, QUINN, wool=4, grain=3, ore=2)
    put_settlement(game, WILL, WILL_HOME)
    game.apply_unchecked(RollDice(), forced=[3, 4])
    return game


def test_seven_discards_half_rounded_down() -> None:
    """6 cards: keep all; 8: discard 4; 11: discard 5; 9: discard 4 (rounded down)."""
    game = alex_rolls_seven()
    assert game.phase is Phase.DISCARD
    assert game.state.to_discard == [0, 4, 5, 4]
    assert game.observe(None).to_discard == (0, 4, 5, 4)


def test_discards_one_card_at_a_time_in_seat_order() -> None:
    """Each discard is one card; Larry, then Will, then Quinn discard; then Alex moves
    the robber. Discards go back to the bank."""
    game = alex_rolls_seven()
    deciders = []
    larry = [Resource.BRICK, Resource.BRICK, Resource.LUMBER, Resource.ORE]
    will = [Resource.BRICK, Resource.LUMBER, Resource.WOOL, Resource.WOOL, Resource.GRAIN]
    quinn = [Resource.WOOL, Resource.WOOL, Resource.GRAIN, Resource.ORE]
    for resource in larry + will + quinn:
        deciders.append(game.decider)
        assert game.phase is Phase.DISCARD
        game.apply(Discard(resource))
    assert deciders == [LARRY] * 4 + [WILL] * 5 + [QUINN] * 4
    assert [sum(h) for h in game.state.hands] == [6, 4, 6, 5]
    assert hand_of(game, LARRY) == bag(lumber=1, grain=2, ore=1)
    assert hand_of(game, WILL) == bag(brick=2, lumber=2, wool=1, grain=1)
    assert hand_of(game, QUINN) == bag(wool=2, grain=2, ore=1)
    assert game.state.bank == [19 - 7 + 3, 19 - 7 + 2, 19 - 9 + 4, 19 - 7 + 2, 19 - 4 + 2]
    assert game.phase is Phase.MOVE_ROBBER and game.decider == ALEX


def test_cannot_discard_a_card_not_held_or_skip_discarding() -> None:
    """Larry holds no wool; and the robber cannot move before the discards are done."""
    game = alex_rolls_seven()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="no wool"):
        game.apply(Discard(Resource.WOOL))
    with pytest.raises(IllegalActionError, match="not allowed in phase discard"):
        game.apply(MoveRobber(FOREST_11, WILL))
    assert snapshot(game) == before


def test_after_discards_the_roller_moves_the_robber_and_steals() -> None:
    """Alex moves the robber onto Forest-11 and takes 1 random card from Will; then his
    turn continues with trading (main phase)."""
    game = alex_rolls_seven()
    for resource in [Resource.BRICK] * 2 + [Resource.LUMBER] * 2:
        game.apply(Discard(resource))
    for resource in [Resource.BRICK, Resource.LUMBER, Resource.WOOL] + [Resource.WOOL] * 2:
        game.apply(Discard(resource))
    for resource in [Resource.WOOL] * 4:
        game.apply(Discard(resource))
    assert game.legal_actions() == [
        MoveRobber(h, WILL if h in (FIELDS_9, FOREST_11, FOREST_8) else None)
        for h in range(19)
        if h != DESERT
    ]
    game.check(MoveRobber(FOREST_11, WILL))
    stolen = game.apply_unchecked(MoveRobber(FOREST_11, WILL), forced=int(Resource.GRAIN))
    assert stolen == Resource.GRAIN
    assert hand_of(game, ALEX) == bag(brick=2, lumber=2, wool=2, grain=1)
    assert hand_of(game, WILL) == bag(brick=2, lumber=2, grain=1)
    assert game.state.robber == FOREST_11
    assert game.phase is Phase.MAIN and game.decider == ALEX


def test_exactly_seven_cards_keeps_all() -> None:
    """Rulebook: "More than 7 resource cards (i.e., 8 or more)": 7 cards discard nothing."""
    game = new_game(seat=ALEX, phase=Phase.ROLL)
    set_hand(game, LARRY, brick=3, lumber=4)
    game.apply_unchecked(RollDice(), forced=[6, 1])
    assert game.state.to_discard == [0, 0, 0, 0]
    assert game.phase is Phase.MOVE_ROBBER and game.decider == ALEX
    assert hand_of(game, LARRY) == bag(brick=3, lumber=4)


# Illustration L: Xander moves the robber from a fields hex onto a hex; the owners of
# settlements "A" and "B" on it no longer receive its production.
XANDER, OWNER_A, OWNER_B = 0, 1, 2


def robber_on_mountains_8() -> Game:
    """Owner A has a settlement and owner B a city on Mountains-8 (the robber is there);
    owner A also has a city on Forest-8, the other 8."""
    game = new_game(seat=XANDER, phase=Phase.ROLL)
    put_settlement(game, OWNER_A, corner(MOUNTAINS_8, "N"))
    put_city(game, OWNER_B, node_at(FOREST_3, MOUNTAINS_8, PASTURE_5))
    put_city(game, OWNER_A, node_at(FOREST_11, FOREST_8, MOUNTAINS_3))
    move_robber(game, MOUNTAINS_8)
    return game


def test_robber_blocks_production_of_its_hex() -> None:
    """An 8 is rolled: Mountains-8 (robber) pays nobody; Forest-8 still pays 2 lumber."""
    game = robber_on_mountains_8()
    game.apply_unchecked(RollDice(), forced=[2, 6])
    assert hand_of(game, OWNER_A) == bag(lumber=2)
    assert hand_of(game, OWNER_B) == bag()
    assert game.state.bank == [19, 17, 19, 19, 19]


def test_robber_must_move_to_another_hex() -> None:
    """Rulebook: "You may not choose to leave the robber on the same hex"."""
    game = robber_on_mountains_8()
    set_hand(game, OWNER_A, ore=1)
    game.apply_unchecked(RollDice(), forced=[1, 6])
    assert game.phase is Phase.MOVE_ROBBER
    hexes = {a.hex for a in game.legal_actions() if isinstance(a, MoveRobber)}
    assert hexes == set(range(19)) - {MOUNTAINS_8}
    before = snapshot(game)
    for victim in (None, OWNER_A, OWNER_B):
        with pytest.raises(IllegalActionError, match="different hex"):
            game.apply(MoveRobber(MOUNTAINS_8, victim))
    assert snapshot(game) == before


def test_robber_may_go_back_to_the_desert() -> None:
    """5th edition: the robber may be moved "to the desert hex" (nobody to rob there)."""
    game = robber_on_mountains_8()
    game.apply_unchecked(RollDice(), forced=[5, 2])
    assert MoveRobber(DESERT, None) in game.legal_actions()
    game.apply(MoveRobber(DESERT, None))
    assert game.state.robber == DESERT
    assert game.phase is Phase.MAIN


def test_steal_only_from_a_player_with_a_building_there_and_cards() -> None:
    """On Mountains-8: A (settlement, no cards) cannot be robbed, B (city, cards) can;
    Quinn holds cards but has no building there; Xander may not rob himself."""
    game = robber_on_mountains_8()
    move_robber(game, DESERT)
    set_hand(game, OWNER_B, wool=2)
    set_hand(game, 3, ore=5)
    put_settlement(game, XANDER, corner(MOUNTAINS_8, "SE"))
    set_hand(game, XANDER, grain=1)
    game.apply_unchecked(RollDice(), forced=[3, 4])
    on_mountains = [
        a for a in game.legal_actions() if isinstance(a, MoveRobber) and a.hex == MOUNTAINS_8
    ]
    assert on_mountains == [MoveRobber(MOUNTAINS_8, OWNER_B)]
    for victim, rule in [(None, "must steal"), (OWNER_A, "cannot be robbed"), (3, "cannot be")]:
        with pytest.raises(IllegalActionError, match=rule):
            game.apply(MoveRobber(MOUNTAINS_8, victim))
    with pytest.raises(IllegalActionError, match="cannot be robbed"):
        game.apply(MoveRobber(MOUNTAINS_8, XANDER))
    game.apply_unchecked(MoveRobber(MOUNTAINS_8, OWNER_B), forced=int(Resource.WOOL))
    assert hand_of(game, XANDER) == bag(wool=1, grain=1)
    assert hand_of(game, OWNER_B) == bag(wool=1)


def test_no_cards_no_steal() -> None:
    """Rulebook: "If that player has no cards, you get nothing": a hex whose only neighbour holds
    no cards is robbed with no victim."""
    game = robber_on_mountains_8()
    move_robber(game, DESERT)
    game.apply_unchecked(RollDice(), forced=[3, 4])
    assert MoveRobber(FOREST_8, None) in game.legal_actions()
    game.apply(MoveRobber(FOREST_8, None))
    assert game.state.robber == FOREST_8
    assert [sum(h) for h in game.state.hands] == [0, 0, 0, 0]


def test_stolen_card_is_seen_by_thief_and_victim_only() -> None:
    """The victim holds the cards face down; only the two players know which was taken."""
    game = robber_on_mountains_8()
    set_hand(game, OWNER_B, ore=1, wool=1)
    game.apply_unchecked(RollDice(), forced=[3, 4])
    game.apply_unchecked(MoveRobber(FOREST_3, OWNER_B), forced=int(Resource.ORE))
    seen = {seat: game.observe(seat).history[-1] for seat in (XANDER, OWNER_A, OWNER_B, 3)}
    assert seen[XANDER] == (XANDER, MoveRobber(FOREST_3, OWNER_B), Resource.ORE)
    assert seen[OWNER_B][2] == Resource.ORE
    assert seen[OWNER_A][2] is None and seen[3][2] is None
    assert game.observe(None).history[-1][2] is None
    assert game.observe(OWNER_A).history.to_list(len(game.state.steps) - 1)[0]["outcome"] is None
    assert game.observe(OWNER_B).history.to_list(len(game.state.steps) - 1)[0]["outcome"] == "ore"
    assert game.observe(OWNER_A).resource_counts == (1, 0, 1, 0)


def test_seven_produces_nothing() -> None:
    """Rulebook: "If you roll a 7, none of the players receive resources"."""
    game = robber_on_mountains_8()
    move_robber(game, HILLS_6)
    game.apply_unchecked(RollDice(), forced=[4, 3])
    assert game.state.bank == [19] * 5
    assert game.phase is Phase.MOVE_ROBBER
