"""Set-up evaluation for the ``search`` bot (helpers only, no Player subclass here).

:func:`all_features` describes every seat's start (production per resource, variety,
harbors, room to expand, production that pays for a build together, place in the turn
order); :func:`win_logits` scores every seat
with a logistic model fitted offline on ``heuristic`` self-play games
(``bots/builtin/search_fit.py``), relative to the other seats.
"""

from __future__ import annotations

import math

from engine.board.tables import GENERIC_HARBOR
from engine.state import GameState

PIPS: tuple[int, ...] = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)

NAMES: tuple[str, ...] = (
    "brick",
    "lumber",
    "wool",
    "grain",
    "ore",
    "pips",
    "kinds",
    "harbor2",
    "harbor3",
    "room",
    "room_best",
    "red",
)
"""Relative features of a seat's buildings (a seat's value minus the mean of the
others'); the mid-game value model (:mod:`bots.builtin.search_value`) extends them."""
SYNERGY: tuple[str, ...] = (
    "ore_grain",
    "brick_lumber",
    "ore_wool_grain",
    "sqrt_ore_grain",
    "sqrt_brick_lumber",
)
"""Relative features of the set-up model only: production that pays for something
together (a city, a road and a settlement, a development card). With them the model's
held-out log-loss went from 0.5357 to 0.5310 (a constant: 0.562), and the ``search`` bot
won 1,035 of 2,000 in-process games against three ``heuristic`` bots where it had won
983 (the same games, two seed blocks, +26 in each)."""
ORDER = 3
"""Extra absolute features: place in the turn order 1, 2, 3 (one-hot; 0 is the base)."""

COEF: tuple[float, ...] = (
    0.004, -0.0074, 0.0082, 0.041, 0.0171, 0.1607, 0.1212, 0.0749, 0.4397, 0.1594,
    0.0831, -0.076, 0.057, 0.0666, 0.1805, 0.0311, 0.0729, -0.0144, 0.0001, 0.0359,
)  # fmt: skip
"""Fitted on 6,000 explored heuristic self-play games (24,000 seats; log-loss 0.5263, a
constant 0.5623): ``python -m bots.builtin.search_fit --games 6000``."""
INTERCEPT: float = -1.2064


def hex_pips(s: GameState) -> list[int]:
    numbers = s.board.layout.numbers
    return [PIPS[n] for n in numbers]


def seat_features(s: GameState, seat: int, pips: list[int]) -> list[float]:
    """Absolute features of ``seat``'s buildings (see :data:`NAMES`)."""
    board = s.board
    prod = [0.0] * 5
    red = 0.0
    mine: list[int] = []
    for v, o in enumerate(s.node_owner):
        if o != seat:
            continue
        mine.append(v)
        k = s.node_kind[v]
        for h in board.node_hexes[v]:
            r = board.hex_resource[h]
            if r >= 0:
                prod[r] += pips[h] * k
                red += k if pips[h] == 5 else 0
    harbor2 = 0.0
    harbor3 = 0.0
    for v in mine:
        hb = board.node_harbor[v]
        if hb == GENERIC_HARBOR:
            harbor3 = 1.0
        elif hb >= 0:
            harbor2 += prod[hb]
    # Room: open intersections two steps from our buildings or road ends.
    room = 0.0
    best = 0.0
    seen: set[int] = set()
    for v in s.road_nodes[seat] | set(mine):
        for u in board.node_neighbours[v]:
            for w in board.node_neighbours[u]:
                if w in seen or s.node_owner[w] != -1 or s.blocked[w]:
                    continue
                seen.add(w)
                value = sum(pips[h] for h in board.node_hexes[w] if board.hex_resource[h] >= 0)
                room += 1.0
                best = max(best, float(value))
    total = sum(prod)
    kinds = float(sum(1 for r in range(5) if prod[r]))
    return [*prod, total, kinds, harbor2, harbor3, min(room, 6.0), best, red]


def synergy(prod: list[float]) -> list[float]:
    """Features of :data:`SYNERGY` from the production per resource."""
    brick, lumber, wool, grain, ore = prod[:5]
    return [
        min(ore, grain),
        min(brick, lumber),
        min(ore, wool, grain),
        math.sqrt(ore * grain),
        math.sqrt(brick * lumber),
    ]


def relative(raw: list[list[float]], p: int, width: int) -> list[float]:
    """Seat ``p``'s first ``width`` features minus the mean of the other seats'."""
    others = [row for q, row in enumerate(raw) if q != p]
    return [raw[p][i] - sum(o[i] for o in others) / len(others) for i in range(width)]


def logit(coef: tuple[float, ...], intercept: float, features: list[float]) -> float:
    """A logistic model's log-odds for one row of features."""
    return intercept + sum(c * x for c, x in zip(coef, features, strict=True))


def all_features(s: GameState) -> list[list[float]]:
    """Per seat: relative features then the turn-order one-hot (model inputs)."""
    pips = hex_pips(s)
    raw = [(row := seat_features(s, p, pips)) + synergy(row) for p in range(s.n)]
    width = len(NAMES) + len(SYNERGY)
    return [
        relative(raw, p, width) + [1.0 if p == k else 0.0 for k in range(1, ORDER + 1)]
        for p in range(s.n)
    ]


def win_logits(s: GameState) -> list[float]:
    """The model's log-odds of winning for every seat."""
    return [logit(COEF, INTERCEPT, f) for f in all_features(s)]
