"""Swiss pairing (pure): everyone seated once a round, leaders meet leaders, the
author rule holds, tables do not repeat when avoidable, seats even out; tie-breaks."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from catan_arena.tournaments.scheduling import Entry
from catan_arena.tournaments.swiss import buchholz, rounds_needed, swiss_round, tie_break_key


def entries(n: int, authors: int | None = None) -> list[Entry]:
    return [Entry(id=i, author=i % (authors or n)) for i in range(n)]


def play(tables: list[tuple[int, ...]], scores: Counter[int]) -> None:
    """A stand-in result: lower ids place better (points 3, 2, 1, 0 by place)."""
    for table in tables:
        for place, entry in enumerate(sorted(table)):
            scores[entry] += len(table) - 1 - place


@pytest.mark.parametrize("n", range(3, 41))
def test_every_entry_is_seated_once_a_round(n: int) -> None:
    field = entries(n)
    history: list[tuple[int, ...]] = []
    scores: Counter[int] = Counter()
    for number in range(3):
        tables = [t.seats for t in swiss_round(field, scores, history, seed=number)]
        seated = [e for t in tables for e in t]
        assert len(seated) == len(set(seated))
        assert all(len(t) in (3, 4) for t in tables)
        byes = n - len(seated)
        assert byes == (1 if n == 5 else 0), (n, tables)  # 5 = 4 + bye: no mix of 3s and 4s
        history += tables
        play(tables, scores)


def test_top_scorers_sit_together_in_the_next_round() -> None:
    field = entries(12)
    scores = Counter({0: 9, 1: 8, 2: 7, 3: 6})  # the four leaders after round one
    history = [(0, 4, 5, 6), (1, 7, 8, 9), (2, 10, 11, 3)]
    tables = [set(t.seats) for t in swiss_round(field, scores, history, seed=1)]
    assert 0 in tables[0] and len(tables[0] & {0, 1, 2, 3}) >= 3  # leaders meet leaders
    assert len(tables[-1] & {0, 1, 2, 3}) == 0


def test_the_author_rule_holds_with_many_versions_per_author() -> None:
    field = entries(16, authors=4)  # four authors with four versions each
    history: list[tuple[int, ...]] = []
    scores: Counter[int] = Counter()
    for number in range(4):
        tables = [t.seats for t in swiss_round(field, scores, history, seed=number)]
        for table in tables:
            assert len({e % 4 for e in table}) == len(table), table
        history += tables
        play(tables, scores)


def test_one_author_short_is_refused() -> None:
    with pytest.raises(ValueError, match="3 different authors"):
        swiss_round(entries(6, authors=2), {}, [])


def test_no_table_repeats_over_three_rounds_of_twelve() -> None:
    field = entries(12)
    history: list[tuple[int, ...]] = []
    scores: Counter[int] = Counter()
    for number in range(3):
        tables = [t.seats for t in swiss_round(field, scores, history, seed=number)]
        history += tables
        play(tables, scores)
    sets = [frozenset(t) for t in history]
    assert len(sets) == len(set(sets))
    pairs = Counter(p for t in history for p in itertools.combinations(sorted(t), 2))
    naive = _naive_repeats(12, 3)
    assert sum(c - 1 for c in pairs.values() if c > 1) < naive


def _naive_repeats(n: int, rounds: int) -> int:
    """Repeated pairs of a plain top-down split by score (no repeat avoidance)."""
    scores: Counter[int] = Counter()
    history: list[tuple[int, ...]] = []
    for _ in range(rounds):
        order = sorted(range(n), key=lambda e: (-scores[e], e))
        tables = [tuple(order[i : i + 4]) for i in range(0, n, 4)]
        history += tables
        play(tables, scores)
    pairs = Counter(p for t in history for p in itertools.combinations(sorted(t), 2))
    return sum(c - 1 for c in pairs.values() if c > 1)


def test_seats_are_balanced_over_rounds() -> None:
    field = entries(8)
    history: list[tuple[int, ...]] = []
    scores: Counter[int] = Counter()
    for number in range(4):
        tables = [t.seats for t in swiss_round(field, scores, history, seed=number)]
        history += tables
        play(tables, scores)
    first_seat = Counter(t[0] for t in history)
    assert max(first_seat.values()) <= 2, first_seat


def test_the_same_seed_pairs_the_same_way() -> None:
    field = entries(20)
    scores = Counter({i: i % 7 for i in range(20)})
    assert swiss_round(field, scores, [], seed=5) == swiss_round(field, scores, [], seed=5)


def test_rounds_needed_grows_with_the_field() -> None:
    assert rounds_needed(4) == 3
    assert rounds_needed(16) == 4
    assert rounds_needed(64) == 5
    assert rounds_needed(200) == 6


def test_tie_breaks_in_order() -> None:
    scores = {1: 6.0, 2: 6.0, 3: 6.0, 4: 6.0, 5: 0.0, 6: 9.0}
    history = [(1, 6, 5), (2, 5, 5), (3, 6, 5), (4, 6, 5)]
    tie = buchholz(scores, history)
    assert tie[1] == 4.5 and tie[2] == 0.0  # 1 met the leader, 2 met only the last
    means = {1: 5.0, 2: 7.0, 3: 5.0, 4: 6.0}
    wins = {1: 1, 2: 2, 3: 2, 4: 0}
    order = sorted([1, 2, 3, 4], key=lambda e: tie_break_key(e, scores, tie, means, wins))
    assert order == [4, 3, 1, 2]  # all Buchholz 4.5 but 2; then mean points; then wins
