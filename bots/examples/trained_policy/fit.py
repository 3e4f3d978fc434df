"""Fit the policy's weights: how much more often winners chose each action kind than
losers did, over self-play games of random bots (``python fit.py [GAMES]``)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
from features import KINDS, features

from engine import Game, RulesConfig


def fit(games: int, seed: int = 0) -> np.ndarray:
    rng = random.Random(seed)
    won, lost = np.zeros(len(KINDS) + 1), np.zeros(len(KINDS) + 1)
    for g in range(games):
        game = Game.new(RulesConfig(players=3), seed * 1000 + g)
        chosen: list[tuple[int, np.ndarray]] = []
        while not game.is_over:
            legal = game.legal_actions()
            action = legal[rng.randrange(len(legal))]
            chosen.append((game.decider, features(action)))
            game.apply(action)
        winner = game.outcome.winner if game.outcome else None
        for seat, vector in chosen:
            (won if seat == winner else lost).__iadd__(vector)
    weights: np.ndarray = won / max(won.sum(), 1) - lost / max(lost.sum(), 1)
    return weights


if __name__ == "__main__":
    weights = fit(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
    path = Path(__file__).with_name("weights.json")
    path.write_text(json.dumps({"weights": [round(float(w), 5) for w in weights]}) + "\n")
    print(f"wrote {path}")
