"""The set-up model's offline fit (``bots/builtin/search_fit.py``): the logistic fit
recovers a known model, a prior is a model the fit corrects (and keeps where the rows say
nothing), and a search seat's game gives that seat's row."""

from __future__ import annotations

import math
import random

import pytest

from bots.builtin.search_fit import Row, fit, log_loss, play_search
from bots.builtin.search_setup import NAMES, ORDER, SYNERGY

TRUE_COEF = (0.8, -0.5)
TRUE_INTERCEPT = -1.0


def rows_of(coef: tuple[float, ...], intercept: float, n: int, seed: int) -> list[Row]:
    """Rows drawn from a known logistic model on two standard normal features."""
    rng = random.Random(seed)
    out: list[Row] = []
    for _ in range(n):
        x = [rng.gauss(0, 1) for _ in coef]
        p = 1 / (1 + math.exp(-(intercept + sum(c * v for c, v in zip(coef, x, strict=True)))))
        out.append((x, int(rng.random() < p)))
    return out


def test_the_fit_recovers_a_known_model() -> None:
    coef, intercept = fit(rows_of(TRUE_COEF, TRUE_INTERCEPT, 20_000, 1), l2=1.0)
    assert coef == pytest.approx(TRUE_COEF, abs=0.06)
    assert intercept == pytest.approx(TRUE_INTERCEPT, abs=0.06)


def test_a_prior_is_corrected_toward_the_rows() -> None:
    rows = rows_of(TRUE_COEF, TRUE_INTERCEPT, 20_000, 2)
    wrong = ((0.0, 0.0), 0.0)
    coef, intercept = fit(rows, l2=1.0, prior=wrong)
    assert coef == pytest.approx(TRUE_COEF, abs=0.06)
    assert intercept == pytest.approx(TRUE_INTERCEPT, abs=0.06)


def test_a_strong_shrinkage_keeps_the_prior() -> None:
    rows = rows_of(TRUE_COEF, TRUE_INTERCEPT, 500, 3)
    prior = ((0.3, 0.1), -0.7)
    coef, intercept = fit(rows, l2=1e9, prior=prior)
    assert coef == pytest.approx(prior[0], abs=1e-3)
    assert intercept == pytest.approx(prior[1], abs=0.05)  # the intercept is not shrunk
    free, _ = fit(rows, l2=1e9)  # control: without the prior, shrunk to nothing
    assert free == pytest.approx((0.0, 0.0), abs=1e-3)


def test_log_loss_of_a_model() -> None:
    rows: list[Row] = [([0.0], 1), ([0.0], 0), ([math.log(3)], 1)]
    # p = 0.5, 0.5, 0.75
    expected = -(math.log(0.5) * 2 + math.log(0.75)) / 3
    assert log_loss(rows, [1.0], 0.0) == pytest.approx(expected)
    drawn = rows_of(TRUE_COEF, TRUE_INTERCEPT, 5000, 4)
    assert log_loss(drawn, TRUE_COEF, TRUE_INTERCEPT) < log_loss(drawn, (0.0, 0.0), -1.0)


def test_a_search_seats_game_gives_its_own_row() -> None:
    rows = play_search(6)
    assert len(rows) == 1
    features, won = rows[0]
    assert len(features) == len(NAMES) + len(SYNERGY) + ORDER
    assert won in (0, 1)
    assert features[-ORDER:] == [1.0 if k == 6 % 4 else 0.0 for k in range(1, ORDER + 1)]
    assert play_search(6) == rows  # reproducible from the seed
