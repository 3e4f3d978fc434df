"""The safe default action played for a bot that failed to decide."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import CANCEL, END_TURN, REJECT, ROLL, Action

PREFERRED: tuple[Action, ...] = (END_TURN, ROLL, REJECT, CANCEL)
"""Tried in order: end the turn, roll, reject a trade offer, cancel one's own offer."""


def safe_default(legal: Sequence[Action], rng: random.Random) -> Action:
    """The first legal action of :data:`PREFERRED`, else a random legal one (a discard,
    a robber move, a set-up placement, a free road) drawn from ``rng``."""
    for action in PREFERRED:
        if action in legal:
            return action
    return rng.choice(list(legal))
