"""The ladder's matchmaking (pure): who needs games plays first, close ratings meet,
never two versions of one author at a table, seats balanced."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from catan_arena.ladder.matchmaking import Candidate, plan_tables


def field(n: int, *, authors: int | None = None, games: int = 10) -> list[Candidate]:
    return [
        Candidate(version=i, author=i % (authors or n), games=games, mu=25.0 + i, seats=(0,) * 4)
        for i in range(n)
    ]


def test_a_new_version_is_seated_first() -> None:
    veterans = field(8, games=50)
    newcomer = Candidate(version=99, author=99, games=0, mu=25.0)
    for seed in range(20):
        tables = plan_tables([*veterans, newcomer], tables=1, rng=random.Random(seed))
        assert len(tables) == 1 and 99 in tables[0]


def test_opponents_are_the_closest_in_mu() -> None:
    candidates = [
        Candidate(version=0, author=0, games=0, mu=25.0),
        *(Candidate(version=i, author=i, games=5, mu=25.0 + i) for i in range(1, 4)),
        *(Candidate(version=i, author=i, games=5, mu=40.0 + i) for i in range(4, 10)),
    ]
    tables = plan_tables(candidates, tables=1, rng=random.Random(1))
    assert sorted(tables[0]) == [0, 1, 2, 3]


def test_never_two_versions_of_one_author_at_a_table() -> None:
    candidates = field(12, authors=4)  # 4 authors with 3 versions each
    for seed in range(50):
        for table in plan_tables(candidates, tables=3, rng=random.Random(seed)):
            authors = [candidates[v].author for v in table]
            assert len(set(authors)) == len(authors), table


def test_three_seats_when_only_three_authors_are_free() -> None:
    candidates = field(6, authors=3)
    tables = plan_tables(candidates, tables=5, rng=random.Random(2))
    assert tables and all(len(t) == 3 for t in tables)
    assert len(tables) == 2  # each version plays once per tick


def test_no_table_with_fewer_than_three_authors() -> None:
    assert plan_tables(field(5, authors=2), tables=3) == []


def test_busy_versions_wait() -> None:
    candidates = [
        Candidate(version=i, author=i, games=0, mu=25.0, busy=1 if i < 2 else 0) for i in range(6)
    ]
    tables = plan_tables(candidates, tables=2, rng=random.Random(3))
    assert len(tables) == 1  # 4 free versions: one table
    assert sorted(tables[0]) == [2, 3, 4, 5]


def test_every_version_plays_once_per_tick_at_most() -> None:
    candidates = field(17, authors=17)
    tables = plan_tables(candidates, tables=10, rng=random.Random(4))
    seated = [v for t in tables for v in t]
    assert len(seated) == len(set(seated))
    assert len(tables) == 4  # 16 seats of 17 candidates: tables of 4 while 4 are free


def test_seats_even_out_over_many_ticks() -> None:
    """Repeated ticks with seat counts fed back: every version sits in each seat
    within a small margin of a quarter of its games."""
    rng = random.Random(5)
    seats: dict[int, Counter[int]] = {i: Counter() for i in range(8)}
    for _ in range(100):  # 8 versions, 2 tables: everyone plays every tick
        candidates = [
            Candidate(
                version=i,
                author=i,
                games=sum(seats[i].values()),
                mu=25.0,
                seats=tuple(seats[i][s] for s in range(4)),
            )
            for i in range(8)
        ]
        for table in plan_tables(candidates, tables=2, rng=rng):
            for seat, version in enumerate(table):
                seats[version][seat] += 1
    for counts in seats.values():
        games = sum(counts.values())
        assert games == 100
        assert max(counts.values()) - min(counts[s] for s in range(4)) <= 2, counts


def test_a_bad_table_size_is_refused() -> None:
    with pytest.raises(ValueError, match="3 or 4"):
        plan_tables(field(8), tables=1, table_size=5)


def test_six_versions_fill_three_tables_when_two_are_allowed() -> None:
    """Six bots, two tables each at most: three tables in flight (two workers busy and
    one queued), every version in two of them; with one table each, only one."""
    candidates = field(6)
    assert len(plan_tables(candidates, tables=4, max_busy=1, rng=random.Random(6))) == 1
    tables = plan_tables(candidates, tables=4, max_busy=2, rng=random.Random(6))
    assert [len(t) for t in tables] == [4, 4, 4]
    assert all(len(set(t)) == len(t) for t in tables)
    assert Counter(v for t in tables for v in t) == {v: 2 for v in range(6)}


def test_idle_versions_are_seated_before_busy_ones() -> None:
    """A busy version takes a second table only when the idle ones cannot fill it."""
    busy = [Candidate(version=i, author=i, games=0, mu=25.0, busy=1) for i in range(4)]
    idle = [Candidate(version=i, author=i, games=90, mu=40.0) for i in range(4, 8)]
    for seed in range(20):
        tables = plan_tables([*busy, *idle], tables=1, max_busy=2, rng=random.Random(seed))
        assert sorted(tables[0]) == [4, 5, 6, 7]
    two = plan_tables([*busy, *idle[:2]], tables=1, max_busy=2, rng=random.Random(1))
    assert {4, 5} <= set(two[0]) and len(two[0]) == 4


def test_a_version_never_exceeds_its_busy_limit() -> None:
    candidates = [Candidate(version=i, author=i, games=1, mu=25.0, busy=i % 3) for i in range(9)]
    for seed in range(20):
        tables = plan_tables(candidates, tables=10, max_busy=2, rng=random.Random(seed))
        seated = Counter(v for t in tables for v in t)
        assert all(candidates[v].busy + n <= 2 for v, n in seated.items())
        assert 2 not in seated and 5 not in seated and 8 not in seated


def test_a_newcomer_is_seated_even_when_everyone_else_is_at_the_busy_limit() -> None:
    """Three house bots each in two tables (the limit), an upload made active: its first
    table is planned now, not after a table ends; idle opponents are still preferred, and
    no one goes more than one table over the limit."""
    house = [Candidate(version=i, author=i, games=30, mu=25.0, busy=2) for i in range(3)]
    newcomer = Candidate(version=9, author=9, games=0, mu=25.0)
    for seed in range(10):
        tables = plan_tables([*house, newcomer], tables=2, max_busy=2, rng=random.Random(seed))
        assert [sorted(t) for t in tables] == [[0, 1, 2, 9]]  # then nobody else is free
    idle = Candidate(version=5, author=5, games=30, mu=25.0)
    tables = plan_tables([*house, idle, newcomer], tables=1, max_busy=2, rng=random.Random(0))
    assert {5, 9} <= set(tables[0])


def test_a_placed_version_waits_while_everyone_else_is_at_the_busy_limit() -> None:
    """The control: the same field with a version that has played (or has a table in
    flight) plans nothing."""
    house = [Candidate(version=i, author=i, games=30, mu=25.0, busy=2) for i in range(3)]
    for placed in (
        Candidate(version=9, author=9, games=1, mu=25.0),
        Candidate(version=9, author=9, games=0, mu=25.0, busy=1),
    ):
        assert plan_tables([*house, placed], tables=2, max_busy=2, rng=random.Random(0)) == []
