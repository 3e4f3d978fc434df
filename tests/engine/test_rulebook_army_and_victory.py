"""Largest Army and winning (Almanac: Largest Army, Knight Cards, Victory Points,
Victory Point Cards; the Siobhán example)."""

from __future__ import annotations

from engine import Game, Phase, Termination
from engine.actions import (
    BuildSettlement,
    BuyDevCard,
    EndTurn,
    MoveRobber,
    PlayKnight,
)
from engine.types import DevCard
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
    PASTURE_2,
    PASTURE_4,
    PASTURE_11,
    SIOBHAN,
    SIOBHAN_ROAD,
    corner,
    new_game,
    node_at,
    put_city,
    put_road_through,
    put_settlement,
    set_devs,
    set_hand,
    set_knights,
    set_turn,
    siobhan_position,
    total_points,
)

# --- Largest Army ---------------------------------------------------------------------


def play_knight(game: Game, hex_: int) -> None:
    """Play a knight before rolling and move the robber to ``hex_`` (nobody to rob)."""
    game.apply(PlayKnight())
    assert game.phase is Phase.MOVE_ROBBER
    game.apply(MoveRobber(hex_, None))


def test_first_to_three_knights_takes_largest_army() -> None:
    """Rulebook: "If you are the first player to have 3 knight cards face up", you take the card
    (2 points)."""
    game = new_game(seat=0, phase=Phase.ROLL)
    set_knights(game, 0, 2)
    set_devs(game, 0, knight=1)
    assert game.state.largest_army == -1
    play_knight(game, FOREST_9)
    s = game.state
    assert s.knights[0] == 3
    assert s.largest_army == 0
    assert s.public_vp[0] == 2
    assert game.observe(1).largest_army == 0 and game.observe(1).knights == (3, 0, 0, 0)


def test_two_knights_are_not_enough() -> None:
    game = new_game(seat=0, phase=Phase.ROLL)
    set_knights(game, 0, 1)
    set_devs(game, 0, knight=1)
    play_knight(game, FOREST_9)
    assert game.state.knights[0] == 2
    assert game.state.largest_army == -1
    assert game.state.public_vp[0] == 0


def test_tie_does_not_take_largest_army_more_knights_do() -> None:
    """Seat 1 matches seat 0's 3 knights: seat 0 keeps the card. With a 4th knight on a
    later turn, seat 1 "takes the special card and the 2 victory points"."""
    game = new_game(seat=0, phase=Phase.ROLL)
    set_knights(game, 0, 3)
    assert game.state.largest_army == 0
    set_knights(game, 1, 2)
    set_devs(game, 1, knight=2)
    set_turn(game, 1, Phase.ROLL)
    play_knight(game, FOREST_9)
    s = game.state
    assert s.knights == [3, 3, 0, 0]
    assert s.largest_army == 0
    assert s.public_vp[:2] == [2, 0]
    set_turn(game, 1, Phase.ROLL)
    play_knight(game, FIELDS_12)
    assert s.knights == [3, 4, 0, 0]
    assert s.largest_army == 1
    assert s.public_vp[:2] == [0, 2]


# --- winning --------------------------------------------------------------------------


def test_siobhan_wins_with_two_hidden_victory_point_cards_on_her_turn() -> None:
    """2 settlements (2) + Longest Road (2) + 2 cities (4) + 2 VP cards (2) = 10: she
    wins as soon as her turn comes, before rolling."""
    game = siobhan_position()
    assert game.observe(1).visible_points[SIOBHAN] == 8
    assert game.observe(SIOBHAN).points() == 10
    assert not game.is_over
    game.apply(EndTurn())
    assert game.is_over
    outcome = game.outcome
    assert outcome is not None
    assert outcome.winner == SIOBHAN
    assert outcome.termination is Termination.VICTORY
    assert outcome.points == (10, 0, 0, 0)
    assert outcome.placings == (1, 2, 2, 2)


def test_buying_the_tenth_point_wins_at_once() -> None:
    """Exception: a victory point card bought this turn that brings you to 10 may be
    revealed at once to win."""
    game = siobhan_position(vp_cards=1, seat_on_turn=SIOBHAN)
    set_hand(game, SIOBHAN, wool=1, grain=1, ore=1)
    game.apply_unchecked(BuyDevCard(), forced=int(DevCard.VICTORY_POINT))
    assert game.is_over
    assert game.outcome is not None and game.outcome.winner == SIOBHAN
    assert game.outcome.points[SIOBHAN] == 10


def test_nine_points_is_not_a_win() -> None:
    """With one victory point card she has 9: the game goes on; a knight bought now
    changes nothing."""
    game = siobhan_position(vp_cards=1, seat_on_turn=SIOBHAN)
    set_hand(game, SIOBHAN, wool=1, grain=1, ore=1)
    game.apply_unchecked(BuyDevCard(), forced=int(DevCard.KNIGHT))
    assert not game.is_over
    assert total_points(game, SIOBHAN) == 9


# Reaching 10 on another player's turn: Coleman breaks Emily's Longest Road, which
# hands the card to Wen, who then has 10 points during Coleman's turn.
COLEMAN, WEN, EMILY = 0, 1, 2
EMILY_ROAD = (
    *SIOBHAN_ROAD,
    node_at(FOREST_9, PASTURE_4, HILLS_10),
    corner(HILLS_10, "N"),
)
BREAK_POINT = SIOBHAN_ROAD[4]
COLEMAN_ROAD = (
    BREAK_POINT,
    node_at(HILLS_6, PASTURE_4, DESERT),
    node_at(PASTURE_4, DESERT, FOREST_3),
    node_at(DESERT, FOREST_3, FIELDS_4),
    node_at(DESERT, MOUNTAINS_3, FIELDS_4),
    node_at(FOREST_11, DESERT, MOUNTAINS_3),
)
WEN_ROAD = (
    corner(HILLS_5, "SW"),
    corner(HILLS_5, "S"),
    corner(HILLS_5, "SE"),
    corner(FIELDS_6, "S"),
    corner(FIELDS_6, "SE"),
    corner(PASTURE_11, "S"),
    corner(PASTURE_11, "SE"),
)


def test_ten_points_on_another_players_turn_waits_for_own_turn() -> None:
    """Rulebook: "If somehow you find you have 10 victory points during another player's turn, you
    must wait until your next turn to claim victory.\""""
    game = new_game(seat=COLEMAN, phase=Phase.MAIN)
    put_settlement(game, EMILY, EMILY_ROAD[0])
    put_road_through(game, EMILY, *EMILY_ROAD)
    put_settlement(game, COLEMAN, COLEMAN_ROAD[-1])
    put_road_through(game, COLEMAN, *COLEMAN_ROAD)
    put_city(game, WEN, WEN_ROAD[0])
    put_city(game, WEN, WEN_ROAD[-1])
    put_settlement(game, WEN, WEN_ROAD[3])
    put_road_through(game, WEN, *WEN_ROAD)
    set_devs(game, WEN, victory_point=3)
    s = game.state
    assert s.longest_road == EMILY and total_points(game, WEN) == 8
    set_hand(game, COLEMAN, brick=1, lumber=1, wool=1, grain=1)
    game.apply(BuildSettlement(BREAK_POINT))
    assert s.road_len == [5, 6, 4, 0]
    assert s.longest_road == WEN
    assert total_points(game, WEN) == 10
    assert not game.is_over and game.phase is Phase.MAIN and game.decider == COLEMAN
    game.apply(EndTurn())
    assert game.is_over
    assert game.outcome is not None and game.outcome.winner == WEN
    assert game.outcome.turns == 2


def test_reaching_ten_by_building_on_own_turn_wins() -> None:
    """A player with 9 points who builds a settlement has 10 and wins at once."""
    game = siobhan_position(vp_cards=1, seat_on_turn=SIOBHAN)
    free = corner(FOREST_9, "N")
    put_road_through(game, SIOBHAN, SIOBHAN_ROAD[5], corner(PASTURE_2, "NE"), free)
    set_hand(game, SIOBHAN, brick=1, lumber=1, wool=1, grain=1)
    assert not game.is_over
    game.apply(BuildSettlement(free))
    assert game.is_over
    assert game.outcome is not None and game.outcome.winner == SIOBHAN
    assert game.outcome.points[SIOBHAN] == 10
