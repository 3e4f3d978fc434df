"""The A/B test's sequential probability ratio test: fast on a clear difference, slow or
never on equals, error rates near alpha and beta."""

from __future__ import annotations

import math
import random

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


def test_equal_versions_take_longer_than_a_rigged_pair() -> None:
    rng = random.Random(7)
    equal: list[float] = []
    while sprt(equal, margin=0.5).verdict is Verdict.CONTINUE and len(equal) < 5000:
        equal.append(rng.gauss(0.0, 1.5))
    assert len(equal) > 12


@pytest.mark.parametrize(
    ("alpha", "beta", "margin"), [(0, 0.05, 0.5), (0.05, 1, 0.5), (0.05, 0.05, 0)]
)
def test_bad_parameters(alpha: float, beta: float, margin: float) -> None:
    with pytest.raises(ValueError):
        sprt([1.0], margin=margin, alpha=alpha, beta=beta)
