"""Round-robin schedules, checked on their own for every entry count from 3 to 20."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from catan_arena.tournaments.scheduling import Entry, Schedule, round_robin

COUNTS = range(3, 21)


def _groupings(schedule: Schedule) -> list[tuple[int, ...]]:
    """Each grouping once (its first rotation)."""
    seen: dict[tuple[int, frozenset[int]], tuple[int, ...]] = {}
    for table in schedule.tables:
        seen.setdefault((table.round, frozenset(table.seats)), table.seats)
    return list(seen.values())


@pytest.mark.parametrize("n", COUNTS)
def test_every_pair_meets_and_every_seat_rotates(n: int) -> None:
    entries = [Entry(i, author=i) for i in range(n)]
    schedule = round_robin(entries)
    met = Counter(
        pair for group in _groupings(schedule) for pair in itertools.combinations(sorted(group), 2)
    )
    pairs = list(itertools.combinations(range(n), 2))
    assert all(met[p] >= 1 for p in pairs)
    assert schedule.pair_counts == {p: met[p] for p in pairs}
    assert schedule.pair_imbalance <= 3
    assert set(schedule.table_sizes) <= {3, 4}
    for group in _groupings(schedule):  # each grouping is played in every rotation
        rotations = [t.seats for t in schedule.tables if set(t.seats) == set(group)]
        for seat in range(len(group)):
            assert sorted(order[seat] for order in rotations).count(group[0]) >= 1
    games = schedule.games_per_entry
    assert all(g > 0 for g in games.values())


@pytest.mark.parametrize("n", [9, 16])
def test_resolvable_counts_are_perfectly_balanced(n: int) -> None:
    schedule = round_robin([Entry(i, i) for i in range(n)], table_size=3 if n == 9 else 4)
    assert schedule.pair_imbalance == 0
    assert len(set(schedule.games_per_entry.values())) == 1
    size = 3 if n == 9 else 4
    assert all(len(set(seats[:size])) == 1 for seats in schedule.seat_counts.values())


def test_one_version_per_author_at_a_table() -> None:
    entries = [Entry(i, author=i // 2) for i in range(12)]  # six authors, two versions each
    schedule = round_robin(entries)
    for table in schedule.tables:
        authors = [entries[e].author for e in table.seats]
        assert len(authors) == len(set(authors)), table
    assert (0, 1) not in schedule.pair_counts and (0, 2) in schedule.pair_counts


def test_cycles_and_determinism() -> None:
    entries = [Entry(i, i) for i in range(10)]
    once, twice = round_robin(entries), round_robin(entries, cycles=2)
    assert min(twice.pair_counts.values()) >= 2
    assert round_robin(entries) == once


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        round_robin([Entry(0, 0), Entry(1, 1)])
    with pytest.raises(ValueError):
        round_robin([Entry(0, 0)] * 4)
    with pytest.raises(ValueError):
        round_robin([Entry(i, i) for i in range(5)], table_size=5)


@pytest.mark.parametrize(("n", "authors"), [(6, 4), (8, 5), (12, 4), (9, 3), (16, 5)])
def test_the_author_rule_is_hard_in_crowded_fields(n: int, authors: int) -> None:
    entries = [Entry(i, author=i % authors) for i in range(n)]
    schedule = round_robin(entries, table_size=4, cycles=2)
    for table in schedule.tables:
        seated = [entries[e].author for e in table.seats]
        assert len(seated) == len(set(seated)), table


def test_three_authors_sit_at_tables_of_three() -> None:
    entries = [Entry(i, author=i % 3) for i in range(7)]  # 7 would be a 4 and a 3
    schedule = round_robin(entries, table_size=4)
    assert set(schedule.table_sizes) == {3}
    for table in schedule.tables:
        assert len({entries[e].author for e in table.seats}) == 3
