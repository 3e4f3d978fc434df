"""Rating math for multiplayer games, pure (no Django): the ladder's Elo.

A game of n players counts as the pairwise results its placings imply (a better place
wins, equal places draw). Each of a player's n - 1 pairings is weighted K / (n - 1), so
one game moves a rating about as much as one two-player game. A version's first
``provisional_games`` games use the larger ``provisional_k`` (shown as provisional);
past ``settle_games`` its K shrinks with its games (versions are immutable: their
ratings should converge). A pair's K is the mean of its two players' K, so what one
gains the other loses: the changes of a game always sum to zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class EloConfig:
    start: float = 1500.0
    k: float = 24.0
    provisional_k: float = 64.0
    provisional_games: int = 20
    scale: float = 400.0
    settle_games: int = 30
    """After this many games K shrinks as ``k × settle_games / games`` (0: never), down
    to ``k_min``: a version never changes, so its rating should settle rather than
    wander with the luck of its latest games (a fixed K never gets closer to the truth
    than its own noise: docs/RATINGS.md)."""
    k_min: float = 2.0


def is_provisional(games: int, config: EloConfig = EloConfig()) -> bool:
    """True while a version has played fewer than ``provisional_games`` games."""
    return games < config.provisional_games


def k_factor(games: int, config: EloConfig = EloConfig()) -> float:
    """The K of a version that has played ``games`` games."""
    if is_provisional(games, config):
        return config.provisional_k
    if config.settle_games and games > config.settle_games:
        return max(config.k_min, config.k * config.settle_games / games)
    return config.k


def expected(rating: float, other: float, config: EloConfig = EloConfig()) -> float:
    """The expected score of ``rating`` against ``other`` (logistic, base 10)."""
    return float(1.0 / (1.0 + 10.0 ** ((other - rating) / config.scale)))


def elo_deltas(
    ratings: Sequence[float],
    placings: Sequence[float],
    games: Sequence[int],
    *,
    config: EloConfig = EloConfig(),
) -> list[float]:
    """The rating change of each seat for one game: ``placings`` 1 = best (equal places
    are a tie), ``games`` the games each had played before this one."""
    n = len(ratings)
    if not 2 <= n == len(placings) == len(games):
        raise ValueError("ratings, placings and games need one entry per seat (2 or more)")
    ks = [k_factor(g, config) for g in games]
    deltas = [0.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            score = 1.0 if placings[i] < placings[j] else 0.5 if placings[i] == placings[j] else 0.0
            weight = (ks[i] + ks[j]) / 2 / (n - 1)
            change = weight * (score - expected(ratings[i], ratings[j], config))
            deltas[i] += change
            deltas[j] -= change
    if abs(sum(deltas)) > 1e-9:  # pragma: no cover - guaranteed by construction above
        raise ArithmeticError(f"Elo changes do not sum to zero: {deltas}")
    return deltas


def openskill_update(
    ratings: Sequence[tuple[float, float]], placings: Sequence[float]
) -> list[tuple[float, float]]:
    """OpenSkill's Plackett–Luce update of each seat's ``(mu, sigma)`` for one game
    (``placings`` 1 = best, equal places tie)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = model.rate(teams, ranks=list(placings))
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


def openskill_start() -> tuple[float, float]:
    """A new version's ``(mu, sigma)``."""
    from openskill.models import PlackettLuce

    rating = PlackettLuce().rating()
    return float(rating.mu), float(rating.sigma)


INHERIT_WIDEN = 0.5
"""An inherited σ grows by this fraction of a new version's σ (in quadrature)."""


def widened_sigma(sigma: float, start_sigma: float) -> float:
    """The σ a new version inherits from its parent's ``sigma``: widened in quadrature by
    ``INHERIT_WIDEN × start_sigma``, never above a new version's ``start_sigma``."""
    return min(start_sigma, math.hypot(sigma, INHERIT_WIDEN * start_sigma))
