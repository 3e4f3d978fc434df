"""The ladder's multiplayer Elo, with numbers worked by hand."""

from __future__ import annotations

import pytest

from catan_arena.ratings.systems import EloConfig, elo_deltas, expected, is_provisional

ESTABLISHED = [EloConfig().provisional_games] * 4


def test_equal_ratings_four_players() -> None:
    # each pairing is worth K/3 = 8; expected 0.5: winner +8*1.5 = +12, last -12
    deltas = elo_deltas([1500] * 4, [1, 2, 3, 4], ESTABLISHED)
    assert deltas == pytest.approx([12.0, 4.0, -4.0, -12.0])


def test_ties_are_half_and_three_players() -> None:
    # K/2 = 12 per pairing; seat 0 beats both (0.5 expected each): +12; the tie cancels
    deltas = elo_deltas([1500] * 3, [1, 2, 2], [EloConfig().provisional_games] * 3)
    assert deltas == pytest.approx([12.0, -6.0, -6.0])


def test_unequal_ratings_follow_the_logistic_expectation() -> None:
    e = expected(1700, 1500)
    assert e == pytest.approx(1 / (1 + 10 ** (-0.5)))  # 0.7597
    deltas = elo_deltas([1700, 1500], [2, 1], [20, 20])
    assert deltas == pytest.approx([-24 * e, 24 * e])


def test_provisional_k_and_zero_sum_with_mixed_players() -> None:
    assert is_provisional(0) and not is_provisional(20)
    deltas = elo_deltas([1500, 1520, 1480, 1610], [2, 1, 4, 3], [0, 50, 5, 200])
    assert sum(deltas) == pytest.approx(0.0, abs=1e-9)
    new = elo_deltas([1500, 1500, 1500, 1500], [1, 2, 3, 4], [0, 0, 0, 0])
    assert new[0] == pytest.approx(64 / 3 * 1.5)  # provisional K = 64


def test_the_same_history_gives_the_same_numbers() -> None:
    def run() -> list[float]:
        ratings = [1500.0] * 4
        games = [0] * 4
        for placings in ([1, 2, 3, 4], [4, 1, 2, 3], [2, 2, 1, 4]) * 10:
            for seat, d in enumerate(elo_deltas(ratings, placings, games)):
                ratings[seat] += d
            games = [g + 1 for g in games]
        return ratings

    assert run() == run()


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        elo_deltas([1500], [1], [0])


def test_k_settles_as_a_version_plays_more() -> None:
    from catan_arena.ratings.systems import EloConfig, k_factor

    config = EloConfig()
    assert [k_factor(g) for g in (0, 19, 20, 30, 60, 120, 360, 5000)] == [
        64.0, 64.0, 24.0, 24.0, 12.0, 6.0, 2.0, 2.0
    ]  # fmt: skip
    assert k_factor(500, EloConfig(settle_games=0)) == config.k  # constant K
    deltas = elo_deltas([1500.0, 1600.0, 1400.0, 1550.0], [1, 2, 3, 4], [0, 25, 90, 400])
    assert abs(sum(deltas)) < 1e-9
