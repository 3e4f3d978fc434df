"""The ``search`` bot's rollout search: its clock, candidates, rollouts and value."""

from __future__ import annotations

import random

import pytest

from bots.builtin import search_rollout
from bots.builtin.deadline import Deadline
from bots.builtin.search import SearchPlayer
from bots.builtin.search_candidates import candidates
from bots.builtin.search_clock import (
    ANSWERS_AHEAD,
    DECISIONS_AHEAD,
    RESERVE_PER_DECISION,
    think_budget,
)
from bots.builtin.search_policy import SearchPlan, SearchPolicy
from bots.builtin.search_rollout import Tally, choose, rollout
from bots.builtin.search_value import win_share
from engine import Action, Clock, Game, Observation, Phase, RulesConfig
from engine import actions as A
from engine.determinize import determinize, redeal


class _Ticking:
    """A clock that moves ``step`` seconds at every reading."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _main_decision(seed: int, min_options: int = 3) -> tuple[Game, Observation]:
    """A main-phase position (heuristic play from ``seed``) with several candidates."""
    game = Game.new(RulesConfig(), seed=seed)
    policy = SearchPolicy(random.Random(seed))
    while not game.is_over:
        seat = game.decider
        observation = game.observe(seat)
        if game.phase is Phase.MAIN and game.state.turn > 12:
            default = policy.act(observation)
            if len(candidates(observation, default, SearchPlan(observation))) >= min_options:
                return game, observation
        game.apply_unchecked(policy.act(observation))
    raise AssertionError("no main-phase decision with enough candidates")


def test_budget_is_a_share_of_the_decision_and_of_the_game_left() -> None:
    roomy = think_budget(Clock(1.0, 10.0, 1000.0))
    assert 0.5 < roomy.cpu < 1.0 and roomy.wall == 1.0
    short_game = think_budget(Clock(1.0, 10.0, 5.0))
    spare = 5.0 - RESERVE_PER_DECISION * ANSWERS_AHEAD
    assert short_game.wall == spare / DECISIONS_AHEAD < 1.0
    assert think_budget(Clock(1.0, 10.0, 0.5)).wall == 0.0  # nothing left: no thinking
    assert think_budget(Clock(0.001, 0.0)).cpu == 0.0
    assert think_budget(Clock(0.1, 5.0)).cpu < think_budget(Clock(1.0, 5.0)).cpu


def test_a_deadline_passes_with_either_clock() -> None:
    late, early = _Ticking(0.0), _Ticking(0.0)
    late.now, early.now = 5.0, 0.0
    assert Deadline(1.0, early, Deadline(1.0, late)).passed()
    assert Deadline(1.0, late, Deadline(1.0, early)).passed()
    assert not Deadline(1.0, early, Deadline(1.0, early)).passed()


def test_candidates_start_with_the_default_and_are_legal_and_distinct() -> None:
    for seed in (3, 4, 5):
        _, observation = _main_decision(seed)
        default = SearchPolicy(random.Random(0)).act(observation)
        options = candidates(observation, default, SearchPlan(observation))
        assert options[0] == default and len(set(options)) == len(options)
        assert all(a in observation.legal_actions for a in options[1:])
        assert not any(isinstance(a, A.ProposeTrade) for a in options[1:])


def test_more_time_means_more_rounds_and_never_past_the_deadline() -> None:
    _, observation = _main_decision(7)
    default = SearchPolicy(random.Random(0)).act(observation)
    options = candidates(observation, default, SearchPlan(observation))
    policy = SearchPolicy(random.Random(1))
    rounds = []
    for budget in (0.0, 200.0, 2000.0):
        clock = _Ticking(0.01)  # every reading advances 10 ms
        deadline = Deadline(budget * 0.01, clock)
        choice, done = choose(observation, options, policy, random.Random(2), deadline, 0)
        assert choice in options
        if budget:
            assert clock.now <= deadline.at + 0.01 * 10  # a reading or so past, no more
        rounds.append(done)
    assert rounds[0] == 0 and 0 < rounds[1] < rounds[2]
    ample = Deadline(1.0, _Ticking(0.0))
    _, capped = choose(observation, options, policy, random.Random(2), ample, 0, max_rounds=3)
    assert capped == 3


def test_a_rollout_stops_at_the_turn_end_or_the_deadline() -> None:
    game, _ = _main_decision(9)
    me = game.decider
    policy = SearchPolicy(random.Random(1))
    ample = Deadline(1.0, _Ticking(0.0))
    played = game.copy()
    value = rollout(played, policy, me, 0, ample)
    assert value is not None and 0.0 <= value <= 1.0
    assert played.is_over or (played.state.turn == game.state.turn + 1)
    further = game.copy()
    rollout(further, policy, me, 4, ample)
    assert further.is_over or further.state.turn == game.state.turn + 5
    assert rollout(game.copy(), policy, me, 4, Deadline(0.5, _Ticking(1.0))) is None


def test_the_default_stays_unless_another_is_clearly_better() -> None:
    tally = Tally()
    for noise in (0.1, -0.1, 0.1, -0.1):
        tally.add([0.5, 0.5 + noise, 0.45])
    assert tally.best() == 0
    sure = Tally()
    for noise in (0.01, -0.01, 0.02, 0.0):
        sure.add([0.3, 0.3 + 0.1 + noise, 0.2])
    assert sure.best() == 1


def test_win_shares_sum_to_one_and_a_finished_game_is_won_outright() -> None:
    game, _ = _main_decision(11)
    shares = win_share(game.state)
    assert abs(sum(shares) - 1.0) < 1e-9 and all(0 < s < 1 for s in shares)
    policy = SearchPolicy(random.Random(3))
    while not game.is_over:
        game.apply_unchecked(policy.act(game.observe(game.decider)))
    outcome = game.outcome
    assert outcome is not None and outcome.winner is not None
    assert win_share(game.state)[outcome.winner] == 1.0


def test_search_spends_more_of_a_longer_clock() -> None:
    _, observation = _main_decision(13)
    used = []
    for seconds in (0.02, 0.2):
        bot = SearchPlayer(random.Random(4))
        wall = _Ticking(0.0)
        bot.clock = wall  # wall time frozen: the CPU budget alone bounds the search
        cpu = _Ticking(0.001)  # each reading: 1 ms of CPU
        bot.cpu_clock = cpu
        bot.act(observation.with_clock(Clock(seconds, 10.0)))
        used.append(cpu.now)
        assert cpu.now <= seconds  # never past the decision's CPU budget
    assert used[1] > 3 * used[0]


def test_every_sample_agrees_with_the_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    game, observation = _main_decision(15)
    me = game.decider
    samples: list[Game] = []

    def recording(obs: Observation, rng: random.Random) -> Game:
        sample = determinize(obs, rng)
        samples.append(sample.copy())
        return sample

    def recording_redeal(first: Game, obs: Observation, rng: random.Random) -> Game:
        sample = redeal(first, obs, rng)
        samples.append(sample.copy())
        return sample

    monkeypatch.setattr(search_rollout, "determinize", recording)
    monkeypatch.setattr(search_rollout, "redeal", recording_redeal)
    default = SearchPolicy(random.Random(0)).act(observation)
    options = candidates(observation, default, SearchPlan(observation))
    ample = Deadline(1.0, _Ticking(0.0))
    _, rounds = choose(
        observation, options, SearchPolicy(random.Random(1)), random.Random(2), ample, 1, 4
    )
    assert rounds == len(samples) == 4
    assert all(s.observe(me).to_dict() == observation.to_dict() for s in samples)
    assert len({str(s.state.hands) for s in samples}) > 1  # the hidden cards do vary


class _Counting(SearchPolicy):
    """The default policy, counting the seats it decided for."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.seats: set[int] = set()

    def act(self, observation: Observation) -> Action:
        assert observation.seat is not None
        self.seats.add(observation.seat)
        return super().act(observation)


def test_a_rollout_gives_the_seat_its_own_policy_where_asked() -> None:
    game, _ = _main_decision(9)
    me = game.decider
    ample = Deadline(1.0, _Ticking(0.0))
    others, own = _Counting(random.Random(1)), _Counting(random.Random(2))
    rollout(game.copy(), others, me, 4, ample, own)
    assert own.seats == {me} and me not in others.seats and others.seats
    alone = _Counting(random.Random(1))  # control: without ``own`` one policy plays all
    rollout(game.copy(), alone, me, 4, ample)
    assert me in alone.seats and len(alone.seats) > 1
