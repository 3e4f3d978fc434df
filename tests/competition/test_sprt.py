"""The A/B test's sequential probability ratio test: fast on a clear difference, slow or
never on equals, error rates near alpha and beta."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from catan_arena.ratings.sprt import Verdict, bounds, sprt


def run(mean: float, sd: float, seed: int, margin: float = 0.5, cap: int = 2000) -> Verdict:
    rng = random.Random(seed)
    pairs: list[float] = []
    while len(pairs) < cap:
        pairs.append(rng.gauss(mean, sd))
        state = sprt(pairs, margin=margin)
        if state.verdict is not Verdict.CONTINUE:
            return state.verdict
    return Verdict.CONTINUE


def test_wald_bounds() -> None:
    lower, upper = bounds(0.05, 0.05)
    assert math.isclose(lower, math.log(0.05 / 0.95))
    assert math.isclose(upper, math.log(0.95 / 0.05))


def test_a_rigged_pair_stops_in_a_few_pairs() -> None:
    pairs = [2.0, 3.0, 2.0, 3.0, 2.0, 3.0]  # B always two or three places better
    states = [sprt(pairs[:n], margin=0.5) for n in range(1, len(pairs) + 1)]
    stops = [s.pairs for s in states if s.verdict is Verdict.BETTER]
    assert stops and stops[0] <= 6


def test_error_rates_are_near_alpha_and_beta() -> None:
    trials = 300
    false_better = sum(run(0.0, 1.5, seed) is Verdict.BETTER for seed in range(trials))
    missed = sum(run(0.5, 1.5, 10_000 + seed) is Verdict.NOT_BETTER for seed in range(trials))
    assert false_better / trials < 0.09  # alpha = 0.05, with room for sampling noise
    assert missed / trials < 0.09  # beta = 0.05


def stopped(mean: float, seed: int, cap: int = 5000) -> tuple[int, Verdict]:
    """Pairs until the test stops (``cap`` if it never does) and its verdict, on pairs of
    score differences drawn around ``mean``."""
    rng = random.Random(seed)
    pairs: list[float] = []
    while len(pairs) < cap:
        pairs.append(rng.gauss(mean, 1.5))
        state = sprt(pairs, margin=0.5)
        if state.verdict is not Verdict.CONTINUE:
            return state.pairs, state.verdict
    return cap, Verdict.CONTINUE


def test_equal_versions_take_longer_than_a_rigged_pair() -> None:
    rigged = [stopped(2.5, seed) for seed in range(30)]  # B clearly better
    equal = [stopped(0.0, 1_000 + seed) for seed in range(30)]
    assert all(verdict is Verdict.BETTER for _, verdict in rigged)
    assert sum(verdict is Verdict.NOT_BETTER for _, verdict in equal) >= 27
    rigged_pairs = statistics.median(pairs for pairs, _ in rigged)
    equal_pairs = statistics.median(pairs for pairs, _ in equal)
    assert rigged_pairs <= 12 and equal_pairs > 3 * rigged_pairs, (rigged_pairs, equal_pairs)


@pytest.mark.parametrize(
    ("alpha", "beta", "margin"), [(0, 0.05, 0.5), (0.05, 1, 0.5), (0.05, 0.05, 0)]
)
def test_bad_parameters(alpha: float, beta: float, margin: float) -> None:
    with pytest.raises(ValueError):
        sprt([1.0], margin=margin, alpha=alpha, beta=beta)
