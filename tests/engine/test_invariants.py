"""Property tests: random games keep every invariant, copies and replays are exact, and
observations hide what a seat may not know."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import actions as A
from engine.board.topology import standard_topology
from engine.config import BoardSetup, RulesConfig
from engine.game import Game
from engine.observation import Observation
from engine.phases import Phase, Termination
from engine.state import GameState
from tests.support.invariants import (
    check_invariants,
    choose_action,
    longest_trail,
    play_random,
    snapshot,
)

SEEDS = st.integers(0, 2**32 - 1)
CONFIGS = st.builds(
    RulesConfig,
    players=st.sampled_from((3, 4)),
    domestic_trade=st.booleans(),
    friendly_robber=st.booleans(),
    strict_trade_then_build=st.booleans(),
    board=st.sampled_from(tuple(BoardSetup)),
    vp_to_win=st.sampled_from((10, 10, 6, 13)),
    discard_limit=st.sampled_from((7, 7, 3, 9)),
    max_trade_offers_per_turn=st.sampled_from((3, 3, 1, 6)),
    max_turns=st.sampled_from((1000, 1000, 1000, 40)),
)
TRADE_RATES = st.sampled_from((0.0, 0.05, 0.3))
BUILD_BIAS = st.sampled_from((0.0, 0.3, 0.7))
GAME_SETTINGS = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def config_for(seed: int) -> RulesConfig:
    """A deterministic spread of rule options for the many-seed test."""
    r = random.Random(seed * 7919 + 1)
    return RulesConfig(
        players=r.choice((3, 4)),
        domestic_trade=r.random() < 0.75,
        friendly_robber=r.random() < 0.5,
        strict_trade_then_build=r.random() < 0.3,
        board=r.choice(tuple(BoardSetup)),
        vp_to_win=r.choice((10, 10, 10, 8, 12)),
        discard_limit=r.choice((7, 7, 5)),
    )


def _new_game(seed: int, config: RulesConfig) -> Game:
    game = Game.new(config, seed=seed)
    check_invariants(game)
    return game


# --- the brute-force search itself -----------------------------------------------------


def test_longest_trail_small_cases() -> None:
    """Hand-checked cases: a line, a fork, a hexagon ring, and a cut in the middle."""
    assert longest_trail([], []) == 0
    assert longest_trail([(0, 1), (1, 2), (2, 3)], []) == 3
    assert longest_trail([(0, 1), (1, 2), (1, 3)], []) == 2
    ring = [(i, (i + 1) % 6) for i in range(6)]
    assert longest_trail(ring, []) == 6
    assert longest_trail([*ring, (0, 6), (6, 7)], []) == 8
    assert longest_trail([(0, 1), (1, 2), (2, 3)], [1]) == 2
    assert longest_trail([(0, 1), (1, 2), (2, 3)], [0, 3]) == 3
    assert longest_trail(ring, [3]) == 6  # a ring can still start and end at the cut


def test_board_graph_is_the_base_game() -> None:
    """54 intersections, 72 paths, each intersection on 2 or 3 paths, connected."""
    graph = standard_topology().graph
    assert graph.number_of_nodes() == 54 and graph.number_of_edges() == 72
    assert {d for _, d in graph.degree()} == {2, 3}
    assert sorted(d["id"] for _, _, d in graph.edges(data=True)) == list(range(72))


# --- invariants along random games --------------------------------------------------------


@pytest.mark.slow
@settings(GAME_SETTINGS, max_examples=80)
@given(seed=SEEDS, config=CONFIGS, trade_rate=TRADE_RATES, build_bias=BUILD_BIAS)
def test_invariants_after_every_step(
    seed: int, config: RulesConfig, trade_rate: float, build_bias: float
) -> None:
    """Every step of a random game (checked actions, random multi-card trades) keeps
    every invariant."""
    game = _new_game(seed, config)
    play_random(
        game, random.Random(seed), trade_rate=trade_rate, build_bias=build_bias, check_every=1
    )
    outcome = game.outcome
    assert outcome is not None
    if outcome.termination is Termination.VICTORY:
        assert outcome.winner == game.state.current
        assert outcome.points[outcome.winner] >= config.vp_to_win
        assert outcome.placings[outcome.winner] == 1
    else:
        assert outcome.winner is None and outcome.turns == config.max_turns + 1


CHUNKS = 8
GAMES_PER_CHUNK = 125


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_invariants_many_seeds(chunk: int) -> None:
    """1000 random games over varied rules, checked every 10 steps and at the end."""
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        game = _new_game(seed, config_for(seed))
        rng = random.Random(seed)
        play_random(
            game,
            rng,
            trade_rate=(0.0, 0.05, 0.2)[seed % 3],
            build_bias=(0.0, 0.4)[seed % 2],
            check_every=10,
            checked=False,
        )
        assert game.is_over


# --- copies and determinism ---------------------------------------------------------------


@settings(GAME_SETTINGS, max_examples=40)
@given(
    seed=SEEDS,
    config=CONFIGS,
    prefix=st.integers(0, 1500),
    horizon=st.integers(1, 600),
)
def test_copy_continues_identically(
    seed: int, config: RulesConfig, prefix: int, horizon: int
) -> None:
    """A copy, given the same decisions, makes the same chance draws and reaches the
    same states; playing on the copy leaves the original untouched."""
    game = _new_game(seed, config)
    play_random(game, random.Random(seed), max_steps=prefix, trade_rate=0.1, checked=False)
    twin = game.copy()
    assert snapshot(twin.state) == snapshot(game.state)
    assert twin.legal_actions() == game.legal_actions()

    rng = random.Random(seed ^ 0x5EED)
    for _ in range(horizon):
        if game.is_over:
            break
        action = choose_action(game, rng, trade_rate=0.1)
        assert twin.legal_actions() == game.legal_actions()
        assert game.apply(action) == twin.apply(action)
    assert twin.state.steps == game.state.steps
    assert snapshot(twin.state) == snapshot(game.state)
    assert twin.state.chance.position() == game.state.chance.position()
    check_invariants(twin)

    # Independence: play on a fresh copy only; the original must not move.
    before = snapshot(game.state)
    steps = list(game.state.steps)
    other = game.copy()
    play_random(other, random.Random(seed + 1), max_steps=200, trade_rate=0.1)
    assert snapshot(game.state) == before and game.state.steps == steps


@settings(GAME_SETTINGS, max_examples=25)
@given(seed=SEEDS, config=CONFIGS, steps=st.integers(0, 3000))
def test_same_seed_and_decisions_same_log(seed: int, config: RulesConfig, steps: int) -> None:
    """Two games from the same seed, given the same decisions, log identical steps."""
    logs = []
    for _ in range(2):
        game = Game.new(config, seed=seed)
        play_random(game, random.Random(seed), max_steps=steps, trade_rate=0.1)
        logs.append((list(game.state.steps), snapshot(game.state), game.layout))
    assert logs[0] == logs[1]


# --- what a seat may see -----------------------------------------------------------------


def _view(obs: Observation) -> dict[str, object]:
    """Every field of an observation, the history as (seat, action, outcome) tuples."""
    out = {name: getattr(obs, name) for name in Observation.__slots__ if name != "history"}
    out["history"] = list(obs.history)
    out["json"] = obs.to_dict()
    out["history_json"] = obs.history.to_list()
    return out


def _reshuffle_hidden(state: GameState, seat: int, rng: random.Random) -> bool:
    """Change ``seat``'s hidden cards in place (same counts, other kinds); False if it
    holds nothing to change."""
    changed = False
    for cards in (state.hands[seat], state.devs[seat]):
        kinds = [k for k in range(5) if cards[k]]
        if kinds:
            k = rng.choice(kinds)
            cards[k] -= 1
            cards[rng.choice([j for j in range(5) if j != k])] += 1
            changed = True
    return changed


@settings(GAME_SETTINGS, max_examples=40)
@given(seed=SEEDS, config=CONFIGS, steps=st.integers(0, 2500))
def test_observation_hides_other_hands(seed: int, config: RulesConfig, steps: int) -> None:
    """A seat's observation is the same whatever the kinds of an opponent's cards."""
    game = _new_game(seed, config)
    rng = random.Random(seed)
    play_random(game, rng, max_steps=steps, trade_rate=0.1, checked=False)
    n = game.state.n
    for hidden in range(n):
        other = game.copy()
        if not _reshuffle_hidden(other.state, hidden, rng):
            continue
        for viewer in [None, *range(n)]:
            if viewer == hidden:
                continue
            a, b = _view(game.observe(viewer)), _view(other.observe(viewer))
            diff = sorted(k for k in a if a[k] != b[k])
            assert not diff, f"seat {viewer} sees seat {hidden}'s hidden cards via {diff}"
        own = other.observe(hidden)
        assert own.hand == tuple(other.state.hands[hidden])
        assert own.dev_cards == tuple(other.state.devs[hidden])


@settings(GAME_SETTINGS, max_examples=25)
@given(seed=SEEDS, config=CONFIGS)
def test_private_outcomes_in_history(seed: int, config: RulesConfig) -> None:
    """A stolen card's kind is in the thief's and victim's history only; a bought card's
    kind in the buyer's only; dice are public."""
    game = _new_game(seed, config)
    play_random(game, random.Random(seed), trade_rate=0.05, build_bias=0.3, checked=False)
    s = game.state
    views = {v: list(game.observe(v).history) for v in [None, *range(s.n)]}
    for i, (seat, action, outcome) in enumerate(s.steps):
        for viewer, history in views.items():
            assert history[i][:2] == (seat, action)
            seen = history[i][2]
            if isinstance(action, A.MoveRobber) and action.victim is not None:
                allowed = viewer in (seat, action.victim)
            elif isinstance(action, A.BuyDevCard):
                allowed = viewer == seat
            else:
                allowed = True
            expected = outcome if allowed else None
            assert seen == expected, f"step {i} {action}: seat {viewer} sees {seen!r}"


def test_turn_cap_truncates() -> None:
    """A short cap ends the game as a truncation with no winner, invariants intact."""
    game = _new_game(11, RulesConfig(max_turns=5))
    play_random(game, random.Random(11), check_every=1)
    assert game.state.termination is Termination.TURN_LIMIT
    assert game.phase is Phase.GAME_OVER and game.outcome is not None
    assert game.outcome.winner is None
