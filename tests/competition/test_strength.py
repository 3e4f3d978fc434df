"""Plackett–Luce strengths with bootstrap intervals, tied groups and head-to-head."""

from __future__ import annotations

import math
import random

from catan_arena.ratings.strength import GameResult, head_to_head, plackett_luce, strength_table


def simulate(strengths: list[float], games: int, seed: int) -> list[GameResult]:
    """Games of all entries drawn from the Plackett–Luce model itself."""
    rng = random.Random(seed)
    results = []
    for _ in range(games):
        left = list(range(len(strengths)))
        order = []
        while left:
            weights = [math.exp(strengths[e]) for e in left]
            pick = rng.choices(left, weights)[0]
            order.append(pick)
            left.remove(pick)
        results.append({entry: place for place, entry in enumerate(order, 1)})
    return results


def test_known_strengths_are_recovered() -> None:
    truth = [1.0, 0.4, 0.0, -1.4]
    fit = plackett_luce([0, 1, 2, 3], simulate(truth, 3000, seed=1))
    mean = sum(truth) / len(truth)
    for entry, value in enumerate(truth):
        assert abs(fit[entry] - (value - mean)) < 0.12, (entry, fit)


def test_the_fit_does_not_depend_on_the_order_of_games() -> None:
    games = simulate([0.5, 0.0, -0.5, 0.2], 200, seed=2)
    shuffled = games[:]
    random.Random(3).shuffle(shuffled)
    a, b = plackett_luce([0, 1, 2, 3], games), plackett_luce([0, 1, 2, 3], shuffled)
    assert all(abs(a[e] - b[e]) < 1e-6 for e in a)


def test_clear_differences_make_separate_groups_and_equals_one_group() -> None:
    strong = strength_table([0, 1, 2, 3], simulate([3.0, 1.0, -1.0, -3.0], 200, seed=4), samples=50)
    assert [s.entry for s in strong] == [0, 1, 2, 3]
    assert [s.group for s in strong] == [1, 2, 3, 4]
    assert all(s.low <= s.strength <= s.high for s in strong)
    equal = strength_table([0, 1, 2, 3], simulate([0.0] * 4, 60, seed=5), samples=50)
    assert {s.group for s in equal} == {1}


def test_ties_favour_nobody() -> None:
    games: list[GameResult] = [{0: 1, 1: 1, 2: 3}] * 400  # 0 and 1 always tie first
    fit = plackett_luce([0, 1, 2], games)
    assert abs(fit[0] - fit[1]) < 0.25
    assert fit[2] < fit[0] - 1


def test_no_games_no_strength() -> None:
    table = strength_table([7, 8, 9], [])
    assert {s.strength for s in table} == {0.0} and {s.group for s in table} == {1}


def test_head_to_head_counts_both_ways() -> None:
    record = head_to_head([{1: 1, 2: 2, 3: 2}, {1: 3, 2: 1, 3: 2}, {1: 1, 3: 2, 4: 3}])
    assert record[(1, 2)].games == 2 and record[(1, 2)].ahead == 1
    assert record[(1, 2)].behind == 1 and record[(1, 2)].tied == 0
    assert record[(2, 3)].tied == 1 and record[(3, 2)].tied == 1
    assert record[(1, 3)].ahead == 2 and record[(3, 1)].behind == 2
    assert (2, 4) not in record
