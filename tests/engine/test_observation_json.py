"""Observations survive their JSON form, with history streamed as deltas."""

from __future__ import annotations

import json
import random

import pytest

from engine import Game, RulesConfig
from engine.observation import Observation
from engine.state import Step


def test_observation_round_trips_with_streamed_history() -> None:
    for seed in range(4):
        game = Game.new(RulesConfig(), seed)
        rng = random.Random(seed)
        known: dict[int, list[Step]] = {p: [] for p in range(4)}
        sent = dict.fromkeys(range(4), 0)
        while not game.is_over:
            seat = game.decider
            obs = game.observe(seat)
            wire = json.loads(json.dumps(obs.to_dict(history_from=sent[seat])))
            sent[seat] = len(game.state.steps)
            back = Observation.from_dict(
                wire, config=game.config, board=game.layout, steps=known[seat]
            )
            assert back.to_dict() == obs.to_dict()
            if len(game.state.steps) % 97 == 0:
                assert list(back.history) == list(obs.history)
            assert back.legal_actions == obs.legal_actions
            game.apply(rng.choice(game.legal_actions()))


def test_malformed_observations_raise_value_error() -> None:
    game = Game.new(RulesConfig(), 1)
    good = game.observe(0).to_dict(history_from=0)
    for broken in (
        [],
        {**good, "version": 99},
        {**good, "resource_counts": "nobody"},
        {**good, "node_owner": [0] * 3},
        {**good, "hand": [1, 2, 4, 5]},
        {**good, "history_start": 5},
        {**good, "legal_actions": [{"type": "teleport"}]},
    ):
        with pytest.raises(ValueError):
            Observation.from_dict(broken, config=game.config, board=game.layout, steps=[])
