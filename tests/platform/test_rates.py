"""A rate (``30/hour``) is parsed in one place: the settings refuse a bad one at start-up
(tests/platform/test_settings.py), the throttle counts against the parsed one."""

from __future__ import annotations

from typing import Any

import pytest

from catan_arena.core import throttle
from catan_arena.core.rates import Rate, parse_rate


@pytest.mark.parametrize(
    ("text", "rate"),
    [("30/hour", Rate(30, 3600)), ("10/m", Rate(10, 60)), ("1/day", Rate(1, 86400)),
     (" 5/second ", Rate(5, 1))],
)  # fmt: skip
def test_a_rate_is_a_count_per_period(text: str, rate: Rate) -> None:
    assert parse_rate(text) == rate


@pytest.mark.parametrize("text", ["30/fortnight", "30", "x/hour", "-1/hour", "٣/hour", "30/"])
def test_anything_else_is_refused_with_the_form_to_write(text: str) -> None:
    with pytest.raises(ValueError, match="COUNT/PERIOD"):
        parse_rate(text)


def test_the_throttle_counts_against_the_settings_rate(settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {"upload": "2/hour"}}  # fmt: skip
    assert throttle.rate("upload") == Rate(2, 3600)
    assert str(throttle.rate("upload")) == "2 per hour"
    key = "rates-test"
    assert throttle.hit("upload", key) is None and throttle.hit("upload", key) is None
    assert (throttle.hit("upload", key) or 0) > 0  # the third in the hour is refused
