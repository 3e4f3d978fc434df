"""``search_finish``: a win this turn is found from what the seat sees, on the rulebook's
Siobhán position (2 settlements, 2 cities, the Longest Road = 8 visible points, and one
hidden victory point card: 9), and nothing is found where no win is there."""

from __future__ import annotations

import random

import pytest

from bots.builtin import search as search_module
from bots.builtin import search_finish
from bots.builtin.deadline import Deadline
from bots.builtin.search import SearchPlayer
from bots.builtin.search_finish import winning_move
from engine import Game, Observation, Phase
from engine import actions as A
from tests.support.positions import (
    HILLS_10,
    SIOBHAN,
    SIOBHAN_ROAD,
    corner,
    new_game,
    put_city,
    put_road_through,
    put_settlement,
    set_devs,
    set_hand,
    siobhan_position,
)

ME = SIOBHAN
OPEN_SPOT = (5, 1)
"""Two intersections on from the road's end; the second is open to a settlement."""
NO_LIMIT = Deadline(float("inf"))


def nine_points(**hand: int) -> Game:
    """Siobhán on her turn, after rolling, with one victory point card (9) and ``hand``."""
    game = siobhan_position(vp_cards=1, seat_on_turn=ME)
    set_hand(game, ME, **hand)
    assert game.observe(ME).points() == 9
    return game


def play_line(game: Game) -> list[A.Action]:
    """Follow :func:`winning_move` while it finds something; the moves played."""
    played = []
    while not game.is_over:
        move = winning_move(game.observe(ME), random.Random(len(played)), NO_LIMIT)
        if move is None:
            break
        game.apply(move)
        played.append(move)
    return played


def test_a_maritime_trade_then_a_city_wins_this_turn() -> None:
    """2 ore, 2 grain and 4 brick: brick for ore at the bank, then a city (3 ore, 2
    grain) on a settlement: 10 points."""
    game = nine_points(brick=4, grain=2, ore=2)
    played = play_line(game)
    assert isinstance(played[0], A.MaritimeTrade)
    assert isinstance(played[-1], A.BuildCity)
    assert game.is_over and game.outcome is not None and game.outcome.winner == ME


def test_year_of_plenty_pays_for_the_winning_city() -> None:
    game = nine_points(grain=2, ore=1)
    set_devs(game, ME, victory_point=1, year_of_plenty=1)
    played = play_line(game)
    assert isinstance(played[0], A.PlayYearOfPlenty)
    assert game.is_over and game.outcome is not None and game.outcome.winner == ME


def test_nothing_is_found_where_no_win_is_reachable() -> None:
    """Control: 1 ore and 2 grain buy nothing that scores, even through the bank."""
    game = nine_points(grain=2, ore=1)
    assert winning_move(game.observe(ME), random.Random(0), NO_LIMIT) is None


def test_it_does_not_look_past_its_deadline() -> None:
    game = nine_points(brick=4, grain=2, ore=2)
    passed = Deadline(0.0, lambda: 1.0)
    assert winning_move(game.observe(ME), random.Random(0), passed) is None


def test_it_does_not_look_when_more_than_three_points_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six points (no road, no card): no sample is even drawn; at nine it is."""
    drawn: list[int] = []
    real = search_finish.determinize

    def counting(obs: Observation, rng: random.Random) -> Game:
        drawn.append(1)
        return real(obs, rng)

    monkeypatch.setattr(search_finish, "determinize", counting)
    game = new_game(seat=ME, phase=Phase.MAIN)
    put_settlement(game, ME, SIOBHAN_ROAD[0])
    put_settlement(game, ME, SIOBHAN_ROAD[2])
    put_city(game, ME, SIOBHAN_ROAD[4])
    put_city(game, ME, corner(HILLS_10, "N"))
    set_hand(game, ME, grain=2, ore=3)
    assert game.observe(ME).points() == 6
    assert winning_move(game.observe(ME), random.Random(0), NO_LIMIT) is None
    assert not drawn
    winning_move(nine_points(grain=2, ore=3).observe(ME), random.Random(0), NO_LIMIT)
    assert drawn


def test_the_search_bot_takes_a_win_its_default_policy_passes_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A road on to an open intersection, and 1 lumber, 1 wool, 1 grain, 4 ore: the
    default policy buys a development card and ends the turn; four ore for a brick at the
    bank and a settlement there win. Control: without the look for a win the bot does what
    its policy does and the game goes on."""

    def one_turn(bot: SearchPlayer) -> tuple[Game, list[str]]:
        game = nine_points(lumber=1, wool=1, grain=1, ore=4)
        put_road_through(game, ME, SIOBHAN_ROAD[-1], *OPEN_SPOT)
        turn, played = game.state.turn, []
        while not game.is_over and game.state.turn == turn:
            action = bot.act(game.observe(ME))
            game.apply(action)
            played.append(str(action))
        return game, played

    game, played = one_turn(SearchPlayer(random.Random(1)))
    assert game.is_over and game.outcome is not None and game.outcome.winner == ME, played
    assert played == ["bank ore brick", f"settle {OPEN_SPOT[-1]}"]
    monkeypatch.setattr(search_module, "FINISHING", ())
    game, played = one_turn(SearchPlayer(random.Random(1)))
    assert not game.is_over and played == ["buy", "end"]
