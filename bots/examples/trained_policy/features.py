"""Features of a candidate action (a helper module beside bot.py: packages import them)."""

from __future__ import annotations

import numpy as np

from engine import actions as A

KINDS = (
    "build_city", "build_settlement", "buy_dev_card", "build_road", "play_knight",
    "maritime_trade", "roll_dice", "end_turn",
)  # fmt: skip


def features(action: A.Action) -> np.ndarray:
    """One-hot of the action's kind (a last slot for every other kind)."""
    vector = np.zeros(len(KINDS) + 1)
    kind = action.kind
    vector[KINDS.index(kind) if kind in KINDS else len(KINDS)] = 1.0
    return vector
