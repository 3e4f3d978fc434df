"""Mid-game position value for the ``search`` bot (helpers only, no Player subclass here).

:func:`value_features` describes every seat of a full game state (points, production,
expansion room, cards in hand, development cards, knights, road length), relative to the
other seats, plus its own points and the leader's among the others; :func:`win_share`
turns a logistic model's log-odds (fitted offline on self-play positions by
``bots/builtin/search_value_fit.py``) into each seat's share of the win, summing to 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bots.builtin.search_setup import NAMES as SETUP_NAMES
from bots.builtin.search_setup import hex_pips, logit, relative, seat_features
from engine.phases import Phase
from engine.state import GameState

NAMES: tuple[str, ...] = (
    *SETUP_NAMES,
    "vp",
    "cards",
    "over7",
    "devs",
    "knights",
    "road",
)
"""Relative features (a seat's value minus the mean of the others')."""
ABSOLUTE: tuple[str, ...] = ("own_vp", "lead_vp")
"""Extra absolute features: the seat's points and the best of the others' points."""

COEF: tuple[float, ...] = (
    0.006, 0.0044, 0.029, 0.037, 0.0283, 0.0357, 0.4703, 0.0313, 0.2962, 0.1231,
    0.0475, -0.102, 0.2717, 0.1224, 0.0143, 0.5141, 0.0667, 0.052, 0.2362, -0.2736,
)  # fmt: skip
"""Fitted on 51,384 seat positions of 2,500 self-play games (log-loss 0.461; 0.562 for
a constant)."""
INTERCEPT: float = -1.0106


def seat_row(s: GameState, seat: int, pips: list[int]) -> list[float]:
    """Absolute features of one seat (see :data:`NAMES`)."""
    hand = sum(s.hands[seat])
    devs = s.devs[seat]
    return [
        *seat_features(s, seat, pips),
        float(s.total_vp(seat)),
        float(min(hand, 10)),
        1.0 if hand > s.config.discard_limit else 0.0,
        float(sum(devs) - devs[4]),
        float(s.knights[seat]),
        float(min(s.road_len[seat], 10)),
    ]


def value_features(s: GameState) -> list[list[float]]:
    """Per seat: relative features then the absolute ones (model inputs)."""
    pips = hex_pips(s)
    raw = [seat_row(s, p, pips) for p in range(s.n)]
    vp = NAMES.index("vp")
    return [
        [*relative(raw, p, len(NAMES)), raw[p][vp], max(o[vp] for q, o in enumerate(raw) if q != p)]
        for p in range(s.n)
    ]


def win_share(s: GameState) -> list[float]:
    """Each seat's share of the win: 1 for a winner once the game is over, else the
    model's odds normalised over the seats."""
    if s.phase is Phase.GAME_OVER:
        return [1.0 if p == s.winner else 0.0 for p in range(s.n)]
    return softmax([logit(COEF, INTERCEPT, f) for f in value_features(s)])


def softmax(scores: Sequence[float]) -> list[float]:
    """Scores (log-odds up to a shared constant) as shares that sum to 1."""
    top = max(scores)
    odds = [math.exp(x - top) for x in scores]
    total = sum(odds)
    return [o / total for o in odds]
