"""Where roads may be built (Almanac: Roads, Illustration K) and the turn's order."""

from __future__ import annotations

import pytest

from engine import Game, IllegalActionError, Phase
from engine.actions import BuildRoad, EndTurn, RollDice
from tests.support.positions import (
    FIELDS_12,
    FOREST_11,
    HILLS_6,
    MOUNTAINS_10,
    PASTURE_2,
    PASTURE_4,
    TOPOLOGY,
    corner,
    edge_between,
    new_game,
    node_at,
    put_road_through,
    put_roads,
    put_settlement,
    set_hand,
    snapshot,
)

LIAM, BLUE = 0, 1
LIAM_HOME = node_at(FIELDS_12, HILLS_6, FOREST_11)
ROAD_END = node_at(MOUNTAINS_10, FIELDS_12, HILLS_6)
BLUE_HOME = node_at(MOUNTAINS_10, PASTURE_2, HILLS_6)


def illustration_k() -> Game:
    """Liam (white) has a settlement and one road north from it; Blue's settlement sits
    on the intersection just beyond the end of Liam's road."""
    game = new_game(seat=LIAM)
    put_settlement(game, LIAM, LIAM_HOME)
    put_road_through(game, LIAM, LIAM_HOME, ROAD_END)
    put_settlement(game, BLUE, BLUE_HOME)
    put_road_through(game, LIAM, ROAD_END, BLUE_HOME)
    set_hand(game, LIAM, brick=1, lumber=1)
    return game


def test_illustration_k_roads_connect_to_own_road_or_settlement() -> None:
    """The green paths: every free path touching Liam's settlement or road, except past
    the blue settlement (the red path)."""
    game = illustration_k()
    legal = sorted(a.edge for a in game.legal_actions() if isinstance(a, BuildRoad))
    touching = {e for n in (LIAM_HOME, ROAD_END, BLUE_HOME) for e in TOPOLOGY.node_edges[n]}
    mine = set(path for path in touching if game.state.edge_owner[path] == LIAM)
    past_blue = set(TOPOLOGY.node_edges[BLUE_HOME]) - mine
    assert len(past_blue) == 2
    assert legal == sorted(touching - mine - past_blue)
    assert len(legal) == 3


def test_illustration_k_road_past_an_opponents_settlement_is_rejected() -> None:
    game = illustration_k()
    blocked = edge_between(BLUE_HOME, node_at(PASTURE_2, HILLS_6, PASTURE_4))
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="must connect"):
        game.apply(BuildRoad(blocked))
    assert snapshot(game) == before


def test_only_one_road_per_path() -> None:
    game = illustration_k()
    with pytest.raises(IllegalActionError, match="only one road per path"):
        game.apply(BuildRoad(edge_between(LIAM_HOME, ROAD_END)))


def test_a_road_costs_one_brick_and_one_lumber() -> None:
    game = illustration_k()
    edge = edge_between(LIAM_HOME, corner(FIELDS_12, "S"))
    game.apply(BuildRoad(edge))
    assert game.state.hands[LIAM] == [0, 0, 0, 0, 0]
    assert game.state.bank == [19] * 5
    with pytest.raises(IllegalActionError, match="cannot afford a road"):
        game.apply(BuildRoad(edge_between(corner(FIELDS_12, "S"), corner(FIELDS_12, "SW"))))


def test_roll_comes_first() -> None:
    """The turn starts with the production roll: no building or ending the turn before."""
    game = illustration_k()
    game.state.phase = Phase.ROLL
    game.state.rolled = False
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="not allowed in phase roll"):
        game.apply(BuildRoad(edge_between(LIAM_HOME, corner(FIELDS_12, "S"))))
    with pytest.raises(IllegalActionError, match="not allowed in phase roll"):
        game.apply(EndTurn())
    assert snapshot(game) == before
    assert RollDice() in game.legal_actions()


def test_ring_with_a_tail_counts_every_piece() -> None:
    """A closed loop around Hills-6 (6 pieces) plus one piece leading off it: a single
    continuous road of 7."""
    game = new_game(seat=LIAM)
    put_settlement(game, LIAM, LIAM_HOME)
    put_roads(game, LIAM, TOPOLOGY.hex_edges[HILLS_6])
    put_road_through(game, LIAM, corner(HILLS_6, "NW"), corner(FIELDS_12, "N"))
    assert game.state.road_len[LIAM] == 7
    assert game.state.longest_road == LIAM
