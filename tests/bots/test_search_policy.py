"""The ``search`` bot's default policy: legal play and the retuned goal."""

from __future__ import annotations

import random

from bots.builtin.heuristic_plan import Plan
from bots.builtin.search_policy import SearchPlan, SearchPolicy
from engine import Game, Phase, RulesConfig


def test_plays_legal_games_and_only_demotes_road_goals() -> None:
    differed = 0
    for seed in (1, 2, 3):
        game = Game.new(RulesConfig(), seed=seed)
        players = [SearchPolicy(random.Random(seed * 10 + s)) for s in range(4)]
        for player in players:
            player.strict = True  # errors and illegal choices raise
        while not game.is_over:
            seat = game.decider
            observation = game.observe(seat)
            if observation.phase is Phase.MAIN:
                ours, theirs = SearchPlan(observation).goal, Plan(observation).goal
                if theirs[0] != "road":
                    assert ours == theirs
                differed += ours != theirs
            game.apply(players[seat].act(observation))
    assert differed
