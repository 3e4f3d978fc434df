"""Set-up evaluation for the ``search`` bot (helpers only, no Player subclass here).

:func:`setup_features` describes one seat's start (production per resource, variety,
harbors, room to expand, place in the turn order); :func:`win_logits` scores every seat
with a logistic model fitted offline on ``heuristic`` self-play games
(``bots/builtin/search_fit.py``), relative to the other seats.
"""

from __future__ import annotations

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
"""Relative features (a seat's value minus the mean of the others')."""
ORDER = 3
"""Extra absolute features: place in the turn order 1, 2, 3 (one-hot; 0 is the base)."""

COEF: tuple[float, ...] = (
    0.0019, -0.0043, -0.0218, 0.0613, 0.039, 0.1894, 0.5265, 0.0867,
    0.2928, 0.1504, 0.0922, -0.1097, -0.1053, -0.0321, -0.0832,
)  # fmt: skip
"""Fitted on 6,000 explored heuristic self-play games (24,000 seats)."""
INTERCEPT: float = -1.1269


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
    raw = [seat_features(s, p, pips) for p in range(s.n)]
    return [
        relative(raw, p, len(NAMES)) + [1.0 if p == k else 0.0 for k in range(1, ORDER + 1)]
        for p in range(s.n)
    ]


def win_logits(s: GameState) -> list[float]:
    """The model's log-odds of winning for every seat."""
    return [logit(COEF, INTERCEPT, f) for f in all_features(s)]
