"""Determinized states agree with the observation they were sampled from."""

from __future__ import annotations

import random

import pytest

from engine import Game, Phase, RulesConfig
from engine import actions as A
from engine.determinize import determinize, hand_tracker, redeal
from engine.types import BANK_PER_RESOURCE


def assert_consistent(sample: Game, game: Game, seat: int) -> None:
    """``sample`` shows ``seat`` what ``game`` shows it, offers the same legal actions,
    and holds every card exactly once."""
    assert sample.observe(seat).to_dict() == game.observe(seat).to_dict()
    assert sample.legal_actions() == game.legal_actions()
    s = sample.state
    for r in range(5):
        assert s.bank[r] + sum(h[r] for h in s.hands) == BANK_PER_RESOURCE
    assert sum(s.deck) + sum(map(sum, s.devs)) + sum(s.played_devs) == 25


@pytest.mark.slow
def test_determinized_states_have_the_same_public_view_and_legal_actions() -> None:
    checked = 0
    for seed in range(40):
        game = Game.new(RulesConfig(), seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.decider
            obs = game.observe(seat)
            if rng.random() < 0.03:
                assert_consistent(determinize(obs, random.Random(checked)), game, seat)
                checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 500


def test_determinization_varies_hidden_cards_only() -> None:
    """Where steals between two others hid cards' kinds (``engine.hand_tracker``), the
    samples keep my hand and vary the opponents' hands."""
    game = Game.new(RulesConfig(), 4)
    rng = random.Random(4)
    varied = 0
    while not game.is_over and varied < 3:
        game.apply(rng.choice(game.legal_actions()))
        obs = game.observe(game.decider)
        me = obs.seat
        assert me is not None
        if not hand_tracker(obs, random.Random()).hidden_steals or rng.random() > 0.1:
            continue
        samples = [determinize(obs, random.Random(i)).state for i in range(30)]
        assert all(s.hands[me] == game.state.hands[me] for s in samples)
        hidden = {str([h for p, h in enumerate(s.hands) if p != me]) for s in samples}
        varied += len(hidden) > 1
    assert varied == 3, "opponents' hands should be resampled"


def _trade_positions(seeds: range, wanted: int) -> list[Game]:
    """Positions in the middle of a domestic trade where someone has accepted, seen by
    a seat other than the proposer, from random games."""
    found: list[Game] = []
    for seed in seeds:
        game = Game.new(RulesConfig(), seed)
        rng = random.Random(seed)
        while not game.is_over and len(found) < wanted:
            s = game.state
            if s.offer is not None and s.decider != s.current and "accept" in s.responses:
                found.append(game.copy())
            game.apply(rng.choice(game.legal_actions()))
    return found


def test_a_sample_keeps_the_cards_a_pending_trade_proves() -> None:
    """The proposer holds what it offers; a seat that accepted holds what was asked.
    A sample that forgot it let the trade go through with a negative hand."""
    positions = _trade_positions(range(40), wanted=60)
    accepted = 0
    for i, game in enumerate(positions):
        obs = game.observe(game.decider)
        assert obs.offer is not None
        give, get = obs.offer
        for k in range(5):
            sampled = determinize(obs, random.Random(1000 * i + k))
            s = sampled.state
            assert all(s.hands[obs.current][r] >= give[r] for r in range(5))
            for seat, answer in enumerate(obs.responses):
                if answer == "accept":
                    accepted += 1
                    assert all(s.hands[seat][r] >= get[r] for r in range(5))
            rng = random.Random(k)
            for _ in range(12):  # the trade resolves in the sample: no hand goes negative
                if sampled.is_over:
                    break
                sampled.apply(rng.choice(sampled.legal_actions()))
                assert all(x >= 0 for hand in sampled.state.hands for x in hand)
    assert len(positions) == 60 and accepted >= 60 * 5, (len(positions), accepted)


def test_a_redeal_is_a_fresh_determinization_from_an_earlier_one() -> None:
    checked = varied = rolled = 0
    for seed in range(6):
        game = Game.new(RulesConfig(), seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.decider
            obs = game.observe(seat)
            if rng.random() < 0.05:
                first = determinize(obs, random.Random(checked))
                before = first.observe(seat).to_dict(), [h[:] for h in first.state.hands]
                again = [redeal(first, obs, random.Random(k)) for k in range(8)]
                assert (first.observe(seat).to_dict(), first.state.hands) == before  # unchanged
                for sample in again:
                    assert_consistent(sample, game, seat)
                varied += len({str(s.state.hands) + str(s.state.devs) for s in again}) > 1
                if game.phase is Phase.ROLL:  # fresh chance streams: the dice differ too
                    rolls = set()
                    for sample in again:
                        sample.apply_unchecked(A.ROLL)
                        rolls.add(sample.state.dice)
                    rolled += len(rolls) > 1
                checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 50 and varied > checked // 2 and rolled > 3
