"""The candidate value network for the ``search`` bot (``bots/builtin/search_value_net.py``)
and its offline fit (``bots/builtin/search_value_net_fit.py``): the features line up with
the network, the shares read a position the way the rules do (a point or a city's cards
in hand is worth more, not less), and the fit learns a known rule, reproducibly from its
seed."""

from __future__ import annotations

import random

import pytest

from bots.builtin import search_value_net_fit as fit_module
from bots.builtin.search_policy import SearchPolicy
from bots.builtin.search_value_net import (
    ABSOLUTE,
    NAMES,
    NETWORK,
    Network,
    shares,
    value_features,
    win_share,
)
from engine import Game, Phase, RulesConfig
from engine.state import GameState
from engine.types import DevCard


def _turn_start(seed: int, turn: int) -> GameState:
    """The state at the start of ``turn`` of a default-policy self-play game."""
    game = Game.new(RulesConfig(), seed=seed)
    players = [SearchPolicy(random.Random(seed * 7 + i)) for i in range(4)]
    while not (game.phase is Phase.ROLL and game.state.turn >= turn):
        assert not game.is_over
        game.apply_unchecked(players[game.decider].act(game.observe(game.decider)))
    return game.state


def test_every_seat_has_one_input_per_feature_of_the_network() -> None:
    rows = value_features(_turn_start(1, 20))
    assert len(rows) == 4
    assert {len(r) for r in rows} == {len(NAMES) + len(ABSOLUTE)}
    assert {len(w) for w in NETWORK.hidden} == {len(NAMES) + len(ABSOLUTE)}
    assert len(NETWORK.hidden) == len(NETWORK.hidden_bias) == len(NETWORK.output)


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_a_hidden_victory_point_raises_the_seats_share(seed: int) -> None:
    """A Victory Point card counts toward the 10 points (rules: development cards)."""
    s = _turn_start(seed, 24)
    for seat in range(4):
        before = win_share(s)[seat]
        richer = s.copy()
        richer.devs[seat][DevCard.VICTORY_POINT] += 1
        assert win_share(richer)[seat] > before


@pytest.mark.parametrize("seed", [5, 6])
def test_a_citys_cards_in_hand_raise_the_seats_share(seed: int) -> None:
    """Three ore and two grain pay for a city (rules: building costs)."""
    s = _turn_start(seed, 16)
    for seat in range(4):
        before = win_share(s)[seat]
        richer = s.copy()
        richer.hands[seat][3] += 2
        richer.hands[seat][4] += 3
        assert win_share(richer)[seat] > before


def test_shares_sum_to_one() -> None:
    for seed in (7, 8):
        shares_now = win_share(_turn_start(seed, 30))
        assert sum(shares_now) == pytest.approx(1.0) and all(0 < x < 1 for x in shares_now)


def _known_rule_positions(n: int, seed: int) -> list[fit_module.Position]:
    """Four seats of two features; the winner is drawn with odds exp(2 * feature 0)."""
    rng = random.Random(seed)
    out: list[fit_module.Position] = []
    for _ in range(n):
        rows = [[rng.gauss(0, 1), rng.gauss(0, 1)] for _ in range(4)]
        winner = rng.choices(range(4), weights=[pow(2.718281828, 2 * r[0]) for r in rows])[0]
        out.append((rows, winner))
    return out


def test_the_fit_learns_a_known_rule_and_beats_equal_shares() -> None:
    train, held = _known_rule_positions(6000, 1), _known_rule_positions(1000, 2)
    network = fit_module.fit(train, hidden=4, steps=400, seed=3, batch=512)
    equal = fit_module.log_loss(held, Network([[0.0, 0.0]], [0.0], [0.0]))
    assert equal == pytest.approx(1.3863, abs=1e-3)
    assert fit_module.log_loss(held, network) < equal - 0.2
    # Feature 0 drives the share, feature 1 does not.
    low, high = shares([[-1.0, 0.0], [0.0, 0.0], [0.0, 0.0], [1.0, 0.0]], network)[::3]
    assert high > 3 * low
    a, b = shares([[0.0, -1.0], [0.0, 0.0], [0.0, 0.0], [0.0, 1.0]], network)[::3]
    assert b == pytest.approx(a, rel=0.3)


def test_the_fit_is_reproducible_from_its_seed_and_written_as_a_module() -> None:
    train = _known_rule_positions(800, 4)
    first = fit_module.fit(train, hidden=3, steps=50, seed=9, batch=128)
    assert fit_module.fit(train, hidden=3, steps=50, seed=9, batch=128) == first
    assert fit_module.fit(train, hidden=3, steps=50, seed=10, batch=128) != first
    namespace: dict[str, object] = {}
    exec(fit_module.module_text(first, "a test"), namespace)
    assert namespace["HIDDEN"] == tuple(tuple(round(v, 5) for v in row) for row in first.hidden)
    assert namespace["OUTPUT"] == tuple(round(v, 5) for v in first.output)


def test_a_self_play_game_gives_positions_of_every_seat_and_its_winner() -> None:
    positions = fit_module.play(11)
    assert 0 < len(positions) <= fit_module.POSITIONS
    for features, winner in positions:
        assert len(features) == 4 and 0 <= winner < 4
        assert {len(f) for f in features} == {len(NAMES) + len(ABSOLUTE)}
