"""A policy trained by imitation, shipped as a package: this entry module, a helper
module (``features.py``) and its weights (``weights.json``, written by
``benchmarks/train_policy.py``), all in one folder — run it as a folder
(``catan-arena validate bots/examples/trained_policy``) or zipped (the upload format).
numpy is part of the bot runtime.

Every decision but domestic trade is the learned scorer's: each candidate action's
feature row (``features.py``) times the weights, the highest score wins. Domestic trade
falls back to the ``search`` bot's simple rules (no search): before ending the turn, a
bank trade or buying a card it may offer a spare card for the one its goal lacks; it answers
offers and picks partners by those rules.
"""

from __future__ import annotations

import json
import os

import numpy as np
from features import NAMES, SIZE, candidates, features

from bots import Player
from bots.builtin.search_policy import SearchPlan as Plan
from engine import Action, Observation, Phase
from engine import actions as A

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "weights.json")) as handle:
    FITTED = json.load(handle)
if FITTED["features"] != list(NAMES):
    raise ValueError("weights.json was fitted to other features than features.py's")
WEIGHTS = np.array(FITTED["weights"], dtype=float).reshape(SIZE)


class TrainedPolicy(Player):
    """Scores each candidate action with the learned weights; the best wins (ties broken
    by the seeded rng)."""

    name = "trained-policy"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if observation.phase is Phase.TRADE_RESPONSE:
            return A.ACCEPT if A.ACCEPT in legal and Plan(observation).accept_offer() else A.REJECT
        if observation.phase is Phase.TRADE_CONFIRM:
            return Plan(observation).confirm()
        options = candidates(observation)
        scores = features(observation, options) @ WEIGHTS
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        choice: Action = options[int(best[self.rng.randrange(len(best))])]
        if choice in (A.END_TURN, A.BUY_DEV) or isinstance(choice, A.MaritimeTrade):
            return Plan(observation).domestic_offer(self.rng) or choice
        return choice
