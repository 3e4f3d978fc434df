"""Negative controls for the invariant checker: each corrupted state must fail it (a
checker that passes everything would make every invariant test meaningless)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import Game, RulesConfig
from engine.state import GameState
from tests.support.invariants import check_invariants


def _midgame(seed: int = 5, steps: int = 400) -> Game:
    game = Game.new(RulesConfig(), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


def _take_a_card_from_the_bank(s: GameState) -> None:
    r = next(r for r in range(5) if s.bank[r] > 0)
    s.bank[r] -= 1  # a card vanishes: 19 per resource no longer holds


def _grow_a_settlement_out_of_nowhere(s: GameState) -> None:
    free = next(v for v, owner in enumerate(s.node_owner) if owner == -1)
    s.node_owner[free], s.node_kind[free] = 0, 1


def _forget_a_built_road(s: GameState) -> None:
    e = next(e for e, owner in enumerate(s.edge_owner) if owner != -1)
    s.edge_owner[e] = -1


def _slip_a_knight_into_a_hand(s: GameState) -> None:
    s.devs[1][0] += 1


def _count_a_knight_never_played(s: GameState) -> None:
    s.knights[2] += 1


def _lose_a_victory_point(s: GameState) -> None:
    s.public_vp[0] -= 1


CORRUPTIONS: dict[str, Callable[[GameState], None]] = {
    "a resource card vanishes from the bank": _take_a_card_from_the_bank,
    "a settlement appears without a step": _grow_a_settlement_out_of_nowhere,
    "a built road disappears": _forget_a_built_road,
    "a development card appears in a hand": _slip_a_knight_into_a_hand,
    "a knight counted that was never played": _count_a_knight_never_played,
    "visible points disagree with the board": _lose_a_victory_point,
}


def test_the_uncorrupted_position_passes() -> None:
    check_invariants(_midgame())  # positive control for the corruptions below


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_a_corrupted_state_fails_the_checker(name: str) -> None:
    game = _midgame()
    CORRUPTIONS[name](game.state)
    with pytest.raises(AssertionError):
        check_invariants(game)
