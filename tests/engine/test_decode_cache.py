"""Bot input never becomes a long-lived cache key: an action carrying junk fields is
refused, and the decode cache stays small however many distinct replies arrive."""

from __future__ import annotations

import tracemalloc

import pytest

from engine import actions as A
from engine.errors import InvalidActionError


def test_an_action_with_a_junk_field_is_refused_naming_it() -> None:
    with pytest.raises(InvalidActionError, match=r"roll_dice: unknown field\(s\) 'junk'"):
        A.action_from_dict({"type": "roll_dice", "junk": "x" * 100})
    assert A.action_from_dict({"type": "build_road", "edge": 3}) is A.ROADS[3]


def test_a_thousand_junk_replies_leave_no_trace() -> None:
    A._DECODED.clear()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(1_000):
        with pytest.raises(InvalidActionError):
            A.action_from_dict({"type": "end_turn", f"junk{i}": "J" * 100_000})
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert len(A._DECODED) == 0
    assert grown < 1_000_000, grown  # 100 MB of junk went through


def test_the_cache_is_bounded_and_keyed_by_canonical_actions() -> None:
    A._DECODED.clear()
    for edge in range(72):
        A.action_from_dict({"type": "build_road", "edge": edge})
    assert 0 < len(A._DECODED) <= A._DECODED_MAX
    assert all(isinstance(v, A.BuildRoad) for v in A._DECODED.values())
