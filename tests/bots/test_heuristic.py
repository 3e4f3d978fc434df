"""The ``heuristic`` bot: whole games without an illegal action, and decisions on
concrete positions of the beginner map."""

from __future__ import annotations

import random

import pytest

from bots.builtin.heuristic import HeuristicPlayer
from bots.local import play_local_game, seeded_rng
from bots.player import Player
from bots.registry import load_player_class
from engine import Action, BoardSetup, Game, Observation, Phase, Resource, RulesConfig
from engine import actions as A
from engine.board.tables import board_for
from tests.support import positions as P


class Strict(HeuristicPlayer):
    """Raises on internal errors instead of falling back, and checks robber moves."""

    strict = True

    def act(self, observation: Observation) -> Action:
        action = super().act(observation)
        if isinstance(action, A.MoveRobber):
            assert not _own_building(observation, action.hex) or all(
                _own_building(observation, a.hex)
                for a in observation.legal_actions
                if isinstance(a, A.MoveRobber)
            ), f"robber moved onto own building at hex {action.hex}"
        return action


def _own_building(obs: Observation, hex_: int) -> bool:
    nodes = board_for(obs.board).hex_nodes[hex_]
    return any(obs.node_owner[v] == obs.seat for v in nodes)


def decide(game: Game) -> Action:
    return Strict(random.Random(0)).act(game.observe(game.decider))


# --- whole games ---------------------------------------------------------------------


def test_registry_loads_the_heuristic() -> None:
    assert load_player_class("heuristic").name == "heuristic"


CONFIGS = {
    "default": RulesConfig(),
    "3p": RulesConfig(players=3),
    "notrade": RulesConfig(domestic_trade=False),
    "3p-beginner-friendly": RulesConfig(
        players=3, board=BoardSetup.BEGINNER, friendly_robber=True, strict_trade_then_build=True
    ),
}


@pytest.mark.parametrize("name", CONFIGS)
@pytest.mark.parametrize("seed", [3, 4])
def test_heuristics_play_whole_games(name: str, seed: int) -> None:
    config = CONFIGS[name]
    players: list[Player] = [Strict(seeded_rng(seed, s)) for s in range(config.players)]
    result = play_local_game(config, seed, players)  # Game.apply raises on illegal actions
    assert result.outcome.winner is not None


@pytest.mark.parametrize("name", CONFIGS)
def test_heuristic_against_random(name: str) -> None:
    config = CONFIGS[name]
    random_cls = load_player_class("random")
    for seed in (5, 6):
        seat = seed % config.players
        players: list[Player] = [
            Strict(seeded_rng(seed, s)) if s == seat else random_cls(seeded_rng(seed, s))
            for s in range(config.players)
        ]
        play_local_game(config, seed, players)


def test_games_reproduce() -> None:
    def run() -> list[object]:
        players: list[Player] = [Strict(seeded_rng(9, s)) for s in range(4)]
        return list(play_local_game(RulesConfig(), 9, players).game.state.steps)

    assert run() == run()


# --- decisions -------------------------------------------------------------------------

SPOT = P.node_at(P.HILLS_10, P.FOREST_3, P.MOUNTAINS_8)


def _with_settlement(*, spot_on_road: bool = False) -> Game:
    """Seat 0 has a settlement on SPOT and one road from it (two roads, ending on an open
    intersection, with ``spot_on_road``)."""
    game = P.new_game()
    P.put_settlement(game, 0, SPOT)
    a = P.neighbours(SPOT)[0]
    if spot_on_road:
        b = next(v for v in P.neighbours(a) if v != SPOT)
        P.put_road_through(game, 0, SPOT, a, b)
    else:
        P.put_road_through(game, 0, SPOT, a)
    return game


def test_single_legal_action_is_answered() -> None:
    game = P.new_game(phase=Phase.ROLL)
    assert decide(game) == A.ROLL


def test_builds_a_city_when_it_can() -> None:
    game = _with_settlement(spot_on_road=True)
    P.set_hand(game, 0, grain=2, ore=3, brick=1, lumber=1, wool=1)
    assert decide(game) == A.BuildCity(SPOT)


def test_trades_with_the_bank_to_complete_a_city() -> None:
    game = _with_settlement()
    P.set_hand(game, 0, grain=2, ore=2, wool=4)
    assert decide(game) == A.MaritimeTrade(Resource.WOOL, Resource.ORE)


def test_discards_keeping_its_next_build() -> None:
    game = _with_settlement(spot_on_road=True)
    P.set_hand(game, 0, brick=1, lumber=1, wool=1, grain=1, ore=5)
    s = game.state
    s.phase, s.decider, s.to_discard[0] = Phase.DISCARD, 0, 4
    s.resume_phase = Phase.MAIN
    P.refresh(game)
    while game.phase is Phase.DISCARD and game.decider == 0:
        game.apply(decide(game))
    assert P.hand_of(game, 0) == (1, 1, 1, 1, 1)


def test_robber_avoids_own_hexes_and_robs_the_leader() -> None:
    game = _with_settlement()
    s = game.state
    # Seat 1 shares the Hills-10 with us; seat 2 (the leader) and seat 3 sit elsewhere.
    P.put_settlement(game, 1, P.node_at(P.FOREST_9, P.PASTURE_4, P.HILLS_10))
    P.put_settlement(game, 2, P.node_at(P.MOUNTAINS_3, P.HILLS_5, P.FIELDS_6))
    P.put_settlement(game, 3, P.node_at(P.MOUNTAINS_10, P.PASTURE_2, P.HILLS_6))
    s.public_vp[2] = 6
    for seat in (1, 2, 3):
        P.set_hand(game, seat, wool=1)
    s.phase, s.decider, s.resume_phase = Phase.MOVE_ROBBER, 0, Phase.MAIN
    P.refresh(game)
    action = decide(game)
    assert isinstance(action, A.MoveRobber)
    assert not _own_building(game.observe(0), action.hex)
    assert action.victim == 2


def test_plays_a_knight_when_the_robber_blocks_it() -> None:
    game = _with_settlement()
    P.set_turn(game, 0, Phase.ROLL)
    P.set_devs(game, 0, knight=1)
    P.move_robber(game, P.MOUNTAINS_8)
    assert decide(game) == A.KNIGHT


def test_accepts_helpful_offers_unless_the_proposer_is_close_to_winning() -> None:
    game = _with_settlement()
    P.put_settlement(game, 1, P.node_at(P.MOUNTAINS_3, P.HILLS_5, P.FIELDS_6))
    P.set_hand(game, 0, ore=1, grain=1)
    P.set_hand(game, 1, grain=2, ore=2, wool=2)
    s = game.state
    s.phase, s.decider = Phase.TRADE_RESPONSE, 1
    s.offer = ((0, 0, 0, 1, 0), (0, 0, 1, 0, 0))  # seat 0 gives grain, wants wool
    P.refresh(game)
    assert decide(game) == A.REJECT  # seat 1 is saving for a city: grain is not short
    s.offer = ((0, 0, 0, 0, 1), (0, 0, 1, 0, 0))  # seat 0 gives ore, wants wool
    P.refresh(game)
    assert decide(game) == A.ACCEPT  # the ore completes seat 1's city
    s.public_vp[0] = 9
    P.refresh(game)
    assert decide(game) == A.REJECT  # but not from a player one point from winning
