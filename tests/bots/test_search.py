"""The ``search`` bot: legal play, instant forced moves, the time budget, no peeking."""

from __future__ import annotations

import random

import pytest

from bots.builtin import search as search_module
from bots.builtin.deadline import Deadline
from bots.builtin.heuristic import HeuristicPlayer
from bots.builtin.random_bot import RandomPlayer
from bots.builtin.search import SETUP_OPTIONS, SearchPlayer
from bots.builtin.search_trade import sample_responders
from bots.player import Player
from bots.registry import load_player_class
from engine import Action, Clock, Game, Observation, Phase, RulesConfig
from engine.state import GameState


def _play(game: Game, players: list[Player], clock: Clock, max_steps: int = 100_000) -> None:
    """Play with ``game.apply`` (raises on an illegal action)."""
    for _ in range(max_steps):
        if game.is_over:
            break
        seat = game.decider
        game.apply(players[seat].act(game.observe(seat).with_clock(clock)))


def test_registry_loads_the_search_bot() -> None:
    assert load_player_class("search").name == "search"


def test_plays_complete_games_legally() -> None:
    tiny = Clock(0.01, 0.5)
    game = Game.new(RulesConfig(), seed=11)
    players: list[Player] = [SearchPlayer(random.Random(1)), SearchPlayer(random.Random(2))]
    players += [RandomPlayer(random.Random(3)), RandomPlayer(random.Random(4))]
    _play(game, players, tiny)
    assert game.is_over

    config = RulesConfig(players=3, friendly_robber=True, strict_trade_then_build=True)
    game = Game.new(config, seed=12)
    _play(game, [SearchPlayer(random.Random(s)) for s in range(3)], tiny)
    assert game.is_over


def test_beats_random_players() -> None:
    game = Game.new(RulesConfig(), seed=21)
    players: list[Player] = [RandomPlayer(random.Random(s)) for s in range(4)]
    search = SearchPlayer(random.Random(5))
    search.max_samples = 1  # reproducible: one sample per decision, the clock is ample
    players[2] = search
    _play(game, players, Clock(30.0, 0.0))
    outcome = game.outcome
    assert outcome is not None and outcome.winner == 2


def test_single_legal_action_is_answered_at_once() -> None:
    game = Game.new(RulesConfig(), seed=3)
    rng = random.Random(0)
    while game.phase is not Phase.ROLL or len(game.legal_actions()) != 1:
        game.apply(rng.choice(game.legal_actions()))
    observation = game.observe(game.decider).with_clock(Clock(30.0, 60.0))
    bot = SearchPlayer(random.Random(1))
    bot.base = _Refusing()  # any search or heuristic work would call it
    reads = _ScriptedClock([0.0])
    bot.clock = reads
    assert bot.act(observation) == game.legal_actions()[0]
    assert reads.calls <= 1


class _Refusing(HeuristicPlayer):
    def act(self, observation: Observation) -> Action:
        raise AssertionError("a forced decision must not be searched")


class _ScriptedClock:
    """Returns the given readings in turn, then the last one forever; counts reads."""

    def __init__(self, readings: list[float]) -> None:
        self.readings = readings
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        return self.readings[min(self.calls, len(self.readings)) - 1]


def _setup_decision(seed: int) -> Observation:
    game = Game.new(RulesConfig(), seed=seed)
    return game.observe(game.decider).with_clock(Clock(0.05, 0.5))


def _count_playouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the set-up playouts the bot scores (one ``win_logits`` call each)."""
    calls = [0]
    real = search_module.win_logits

    def counting(state: GameState) -> list[float]:
        calls[0] += 1
        return real(state)

    monkeypatch.setattr(search_module, "win_logits", counting)
    return calls


def test_no_new_search_work_starts_after_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    playouts = _count_playouts(monkeypatch)
    observation = _setup_decision(31)
    heuristic_choice = HeuristicPlayer(random.Random(7)).act(observation)

    expired = SearchPlayer(random.Random(7))
    expired.clock = _ScriptedClock([0.0, 1.0])  # start, then always past a 50 ms budget
    assert expired.act(observation) == heuristic_choice
    assert playouts[0] == 1  # only the heuristic's own choice was played out

    playouts[0] = 0
    ample = SearchPlayer(random.Random(7))
    ample.clock = _ScriptedClock([0.0])  # time never moves: every option is tried
    ample.cpu_clock = _ScriptedClock([0.0])
    ample.act(observation)
    assert playouts[0] == min(SETUP_OPTIONS, len(observation.legal_actions))


def test_trade_sampling_stops_at_the_deadline() -> None:
    game = Game.new(RulesConfig(), seed=5)
    rng = random.Random(0)
    while game.phase is not Phase.MAIN:
        game.apply(rng.choice(game.legal_actions()))
    observation = game.observe(game.decider)
    expired = Deadline(0.5, _ScriptedClock([1.0]))
    ample = Deadline(0.5, _ScriptedClock([0.0]))
    assert len(sample_responders(observation, random.Random(1), 8, expired)) == 1
    assert len(sample_responders(observation, random.Random(1), 8, ample)) == 8


def _swap_hidden_cards(game: Game, me: int) -> Game | None:
    """A copy in which two opponents exchanged one card of different kinds: every public
    count (hand sizes, bank) and ``me``'s view stay the same."""
    twin = game.copy()
    s = twin.state
    others = [p for p in range(s.n) if p != me]
    for a in others:
        for b in others:
            for ra in range(5):
                for rb in range(5):
                    if a != b and ra != rb and s.hands[a][ra] and s.hands[b][rb]:
                        s.hands[a][ra] -= 1
                        s.hands[a][rb] += 1
                        s.hands[b][rb] -= 1
                        s.hands[b][ra] += 1
                        return twin
    return None


def test_decisions_depend_only_on_the_observation() -> None:
    game = Game.new(RulesConfig(), seed=41)
    rng = random.Random(2)
    checked = 0
    while not game.is_over and checked < 6:
        seat = game.decider
        if game.phase is Phase.MAIN and len(game.legal_actions()) > 3:
            twin = _swap_hidden_cards(game, seat)
            if twin is not None:
                first: Observation = game.observe(seat).with_clock(Clock(30.0, 0.0))
                second: Observation = twin.observe(seat).with_clock(Clock(30.0, 0.0))
                assert first.to_dict() == second.to_dict()
                assert twin.state.hands != game.state.hands
                answers = []
                for observation in (first, second):
                    player = SearchPlayer(random.Random(9))
                    player.max_samples = 2
                    answers.append(player.act(observation))
                assert answers[0] == answers[1]
                checked += 1
        game.apply(rng.choice(game.legal_actions()))
    assert checked


def test_offers_ask_for_what_the_goal_lacks() -> None:
    from bots.builtin.search_trade import Responder, candidate_offers, would_accept

    hand, goal = (0, 0, 3, 1, 0), (0, 0, 0, 2, 3)  # saving for a city, wool to spare
    offers = candidate_offers(hand, goal)
    assert offers and all(give == (0, 0, 1, 0, 0) for give, _, _ in offers)
    best = max(offers, key=lambda o: o[2])
    assert sum(best[1]) == 2 and all(best[1][r] <= goal[r] for r in range(5))
    # A heuristic responder takes one card it lacks for two it can spare, not the reverse.
    responder = Responder(1, (0, 0, 0, 2, 3), (1, 1, 1, 1, 0))
    assert would_accept(responder, (1, 0, 0, 0, 0), (0, 0, 0, 1, 1))
    assert not would_accept(responder, (1, 0, 0, 0, 0), (0, 0, 0, 3, 0))
    assert not would_accept(responder, (0, 0, 0, 0, 1), (0, 0, 0, 1, 0))


def test_an_offer_is_made_on_any_chance_of_acceptance_the_best_expected_gain_first() -> None:
    from bots.builtin.search_trade import Responder, choose_offer

    wool_for_ore = ((0, 0, 1, 0, 0), (0, 0, 0, 0, 1), 2.0)
    wool_for_grain = ((0, 0, 1, 0, 0), (0, 0, 0, 1, 0), 2.5)
    takes_wool = Responder(1, (0, 0, 0, 2, 2), (0, 0, 1, 0, 0))  # gives ore or grain
    has_no_grain = Responder(1, (0, 0, 0, 0, 2), (0, 0, 1, 0, 0))
    refuses = Responder(1, (0, 0, 0, 2, 2), (1, 0, 0, 0, 0))
    # accepted in one world of eight: still offered (a refusal costs nothing)
    rare = [[takes_wool]] + [[refuses]] * 7
    assert choose_offer([wool_for_ore], rare) == wool_for_ore[:2]
    assert choose_offer([wool_for_ore], [[refuses]] * 8) is None  # control: never accepted
    # gain x share: grain gains more but is accepted in 1 world of 4, ore in 4 of 4
    worlds = [[takes_wool]] + [[has_no_grain]] * 3
    assert choose_offer([wool_for_grain, wool_for_ore], worlds) == wool_for_ore[:2]
    assert choose_offer([wool_for_grain, wool_for_ore], [[takes_wool]] * 4) == wool_for_grain[:2]
