"""Round-robin schedules, pure (no Django): who sits at which table, in which seat.

A schedule is a list of *groupings* (tables of 4, or 3 where the entry count needs it),
built round by round: each round seats every entry once (an entry sits out only when
the count leaves no other way, e.g. 5 entries at tables of 4, and byes rotate). Each
round's tables are chosen greedily, over seeded random candidates, to make the pair that
has met least meet next: every pair of entries meets at least ``cycles`` times and the
counts differ by as little as the search finds (``Schedule.pair_imbalance``). Two
versions of one author never share a table (a hard rule: with fewer authors than seats
the tables seat 3). Every grouping is then played once in each
seat rotation, so every entry sits in every seat of its table equally often.
Deterministic: the same entries give the same schedule.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.config import PLAYER_COUNTS

CANDIDATES = 24
"""Random candidate rounds tried per round (the best is kept)."""
MAX_ROUNDS = 200


@dataclass(frozen=True)
class Entry:
    id: int
    author: int


@dataclass(frozen=True)
class Table:
    round: int
    seats: tuple[int, ...]
    """Entry ids in seat order (seat 0 first)."""
    grouping: int = 0
    """Which grouping this is a rotation of (the duplicate format gives every rotation
    of a grouping the same seed: the same board, dice and cards from every seat)."""


@dataclass(frozen=True)
class Schedule:
    tables: tuple[Table, ...]
    pair_counts: dict[tuple[int, int], int] = field(default_factory=dict)
    """How many groupings (tables, each played in every rotation) each allowed pair
    (lower id first) shares."""
    seat_counts: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Games each entry played in each seat (seat 0 first)."""

    @property
    def pair_imbalance(self) -> int:
        """Most minus fewest meetings over the pairs allowed to meet (0 = perfect)."""
        counts = self.pair_counts.values()
        return max(counts) - min(counts) if counts else 0

    @property
    def games_per_entry(self) -> dict[int, int]:
        return {entry: sum(seats) for entry, seats in self.seat_counts.items()}

    @property
    def table_sizes(self) -> Counter[int]:
        return Counter(len(table.seats) for table in self.tables)


def round_robin(entries: Sequence[Entry], *, table_size: int = 4, cycles: int = 1) -> Schedule:
    """The round-robin schedule of ``entries`` (see the module docstring)."""
    if table_size not in PLAYER_COUNTS:
        raise ValueError("tables seat 3 or 4 players")
    if len({e.id for e in entries}) != len(entries) or len(entries) < 3:
        raise ValueError("a round robin needs at least 3 entries with distinct ids")
    if cycles < 1:
        raise ValueError("cycles must be at least 1")
    ids = sorted(e.id for e in entries)
    author = {e.id: e.author for e in entries}
    if len(set(author.values())) < 3:
        raise ValueError("a round robin needs entries of at least 3 different authors")
    allowed = {(a, b) for a, b in itertools.combinations(ids, 2) if author[a] != author[b]}
    # a table never seats two versions of one author: with fewer authors than seats,
    # tables of 3
    sizes = _table_sizes(len(ids), min(table_size, len(set(author.values()))))
    rng = random.Random(len(ids) * 1009 + table_size * 17 + cycles)
    met: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    groupings: list[tuple[int, tuple[int, ...]]] = []
    covered_at: int | None = None
    for rnd in range(MAX_ROUNDS):
        if covered_at is None and allowed and min(met[p] for p in allowed) >= cycles:
            covered_at = rnd
        # Once every pair has met, a few more rounds may even out the byes; authors'
        # constraints can make that impossible (then stop after len(ids) tries).
        if covered_at is not None and (_byes_even(byes, ids) or rnd - covered_at >= len(ids)):
            break
        best = min(
            (_candidate(ids, sizes, author, met, byes, rng) for _ in range(CANDIDATES)),
            key=lambda c: c[0],
        )
        if best[0] == math.inf:
            raise ValueError("no schedule found that keeps one version per author at a table")
        for group in best[1]:
            groupings.append((rnd, group))
            for pair in itertools.combinations(sorted(group), 2):
                met[pair] += 1
        seated = {e for group in best[1] for e in group}
        byes.update(e for e in ids if e not in seated)
    return _rotated(groupings, allowed, met, ids)


def _table_sizes(n: int, size: int) -> list[int]:
    """Table sizes for one round: all of ``size``, topped up with tables of 3 (byes only
    when no mix seats everyone)."""
    if size == 3:
        return [3] * (n // 3)
    for threes in range(0, n // 3 + 1):
        rest = n - 3 * threes
        if rest >= 0 and rest % 4 == 0:
            return [4] * (rest // 4) + [3] * threes
    return [4] * (n // 4)  # e.g. 5 entries: one table of 4, one bye


def _byes_even(byes: Counter[int], ids: list[int]) -> bool:
    counts = [byes[e] for e in ids]
    return max(counts) == min(counts)


def _candidate(
    ids: list[int],
    sizes: list[int],
    author: dict[int, int],
    met: Counter[tuple[int, int]],
    byes: Counter[int],
    rng: random.Random,
) -> tuple[float, list[tuple[int, ...]]]:
    """One random greedy round and its cost (lower is better)."""
    pool = ids[:]
    rng.shuffle(pool)
    pool.sort(key=lambda e: -byes[e])  # who sat out most plays first
    groups: list[tuple[int, ...]] = []
    cost = 0.0
    for size in sizes:
        group = [pool.pop(0)]
        while len(group) < size:

            def fits(e: int, group: list[int] = group) -> bool:
                return all(author[e] != author[g] for g in group)

            def score(e: int, group: list[int] = group) -> int:
                return sum(met[_pair(e, g)] for g in group)

            # the author rule is hard: look beyond the window before giving up
            choices = [e for e in pool[: max(size * 3, 8)] if fits(e)]
            choices = choices or [e for e in pool if fits(e)]
            if not choices:
                return math.inf, groups  # this candidate round cannot keep the rule
            pick = min(choices, key=score)
            cost += sum((met[_pair(pick, g)] + 1) ** 2 for g in group)
            group.append(pick)
            pool.remove(pick)
        groups.append(tuple(group))
    return cost, groups


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _rotated(
    groupings: list[tuple[int, tuple[int, ...]]],
    allowed: set[tuple[int, int]],
    met: Counter[tuple[int, int]],
    ids: list[int],
) -> Schedule:
    """Every grouping in each seat rotation, with the report."""
    tables = []
    seats: dict[int, list[int]] = {e: [0, 0, 0, 0] for e in ids}
    for index, (rnd, group) in enumerate(groupings):
        size = len(group)
        for shift in range(size):
            order = group[shift:] + group[:shift]
            tables.append(Table(rnd, order, index))
            for seat, entry in enumerate(order):
                seats[entry][seat] += 1
    width = max((len(g) for _, g in groupings), default=4)
    return Schedule(
        tables=tuple(tables),
        pair_counts={pair: met[pair] for pair in allowed},
        seat_counts={e: tuple(s[:width]) for e, s in seats.items()},
    )
