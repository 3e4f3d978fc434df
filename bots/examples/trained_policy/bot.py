"""A trained linear policy shipped as a package: this entry module, a helper module
(``features.py``) and its weights (``weights.json``, written by ``fit.py``), all in one
folder — run it as a folder (``catan-arena validate bots/examples/trained_policy``) or
zipped (the upload format). numpy is part of the bot runtime."""

from __future__ import annotations

import json
import os

import numpy as np
from features import features

from bots import Player
from engine import Action, Observation

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "weights.json")) as handle:
    WEIGHTS = np.array(json.load(handle)["weights"])


class TrainedPolicy(Player):
    """Scores each legal action with the weights; the best wins (ties broken by rng)."""

    name = "trained-policy"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        scores = np.array([features(a) @ WEIGHTS for a in legal])
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return legal[int(best[self.rng.randrange(len(best))])]
