"""A candidate mid-game position value for the ``search`` bot: a small network (helpers only).

:func:`value_features` describes every seat of a full game state relative to the other
seats (production and its synergies, expansion room, points, hand and development cards
by kind, buildings, the two awards; see :data:`NAMES`), plus absolute ones (its points,
the leader's among the others, its place after the seat about to move, the turn).
:func:`win_share` scores each seat with the network of
:mod:`bots.builtin.search_value_net_model` (one hidden layer of 16 tanh units, fitted
offline on self-play positions by ``bots/builtin/search_value_net_fit.py`` on the
winner's share) and turns the scores into each seat's share of the win, summing to 1.

Held out (the last 15% of 24,000 self-play games of the default policy, 24,230 turn
starts), the log-loss of the winner's share: 1.042 with this network (1.043 for the
first prototype of its fit; measured on a hold-out by position: 1.060 with a
linear model on the same features, 1.105 with the linear model on the 20 features of
:mod:`bots.builtin.search_value` refitted on these positions, 1.139 with that module's
landed constants (fitted seat by seat)), 1.386 for equal shares. The ``search`` bot still
scores its rollouts with :mod:`bots.builtin.search_value`: the network is measured in the
bot through ``benchmarks/search_variants/value_net.py`` before it replaces it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from bots.builtin import search_value_net_model as model
from bots.builtin.search_setup import SYNERGY, hex_pips, relative, synergy
from bots.builtin.search_value import NAMES as LINEAR_NAMES
from bots.builtin.search_value import seat_row as linear_row
from bots.builtin.search_value import softmax
from engine.phases import Phase
from engine.state import GameState
from engine.types import CITIES_PER_PLAYER, ROADS_PER_PLAYER, SETTLEMENTS_PER_PLAYER

NAMES: tuple[str, ...] = (
    *LINEAR_NAMES,
    *SYNERGY,
    *("brick_held", "lumber_held", "wool_held", "grain_held", "ore_held"),
    *("settlements", "cities", "roads"),
    *("knight_cards", "road_cards", "plenty_cards", "monopoly_cards", "point_cards"),
    *("longest_road", "largest_army", "public_vp", "buildable"),
)
"""Relative features (a seat's value minus the mean of the others')."""
VP = NAMES.index("vp")
ABSOLUTE: tuple[str, ...] = (
    *("own_vp", "lead_vp", "after1", "after2", "after3", "turn"),
    *("own_vp_8", "lead_vp_8"),
)
"""Absolute features: the seat's points and the best of the others', its place after the
seat whose turn it is (one-hot; 0 is the base), the turn / 100, and whether the seat or
the leader among the others has 8 points or more."""
NEAR_WIN = 8
"""Points from which a seat counts as near the win (:data:`ABSOLUTE`)."""


def seat_row(s: GameState, seat: int, pips: list[int]) -> list[float]:
    """Absolute features of one seat, in the order of :data:`NAMES`."""
    linear = linear_row(s, seat, pips)
    return [
        *linear,
        *synergy(linear[:5]),
        *map(float, s.hands[seat]),
        float(SETTLEMENTS_PER_PLAYER - s.settlements_left[seat]),
        float(CITIES_PER_PLAYER - s.cities_left[seat]),
        float(ROADS_PER_PLAYER - s.roads_left[seat]),
        *map(float, s.devs[seat]),
        1.0 if s.longest_road == seat else 0.0,
        1.0 if s.largest_army == seat else 0.0,
        float(s.public_vp[seat]),
        float(len(s.buildable[seat])),
    ]


def value_features(s: GameState) -> list[list[float]]:
    """Per seat: the relative features, then the absolute ones (the model's inputs)."""
    pips = hex_pips(s)
    n = s.n
    raw = [seat_row(s, p, pips) for p in range(n)]
    points = [row[VP] for row in raw]
    rows = []
    for p in range(n):
        lead = max(v for q, v in enumerate(points) if q != p)
        after = (p - s.current) % n
        rows.append(
            [
                *relative(raw, p, len(NAMES)),
                points[p],
                lead,
                *(1.0 if after == k else 0.0 for k in (1, 2, 3)),
                s.turn / 100,
                1.0 if points[p] >= NEAR_WIN else 0.0,
                1.0 if lead >= NEAR_WIN else 0.0,
            ]
        )
    return rows


class Network(NamedTuple):
    """A seat scorer with one hidden layer of tanh units (inputs scaled in its weights)."""

    hidden: Sequence[Sequence[float]]
    """Per hidden unit, its weight for each feature."""
    hidden_bias: Sequence[float]
    output: Sequence[float]
    """Per hidden unit, its weight in the seat's score."""


NETWORK = Network(model.HIDDEN, model.HIDDEN_BIAS, model.OUTPUT)
"""The fitted network."""


def seat_score(features: Sequence[float], network: Network = NETWORK) -> float:
    """One seat's score (a log-odds of winning, up to a constant shared by the seats)."""
    return sum(
        out * math.tanh(bias + sum(w * x for w, x in zip(weights, features, strict=True)))
        for weights, bias, out in zip(
            network.hidden, network.hidden_bias, network.output, strict=True
        )
    )


def shares(features: Sequence[Sequence[float]], network: Network = NETWORK) -> list[float]:
    """Each seat's share of the win from every seat's features (a softmax of scores)."""
    return softmax([seat_score(f, network) for f in features])


def win_share(s: GameState) -> list[float]:
    """Each seat's share of the win: 1 for a winner once the game is over, else the
    network's shares."""
    if s.phase is Phase.GAME_OVER:
        return [1.0 if p == s.winner else 0.0 for p in range(s.n)]
    return shares(value_features(s))
