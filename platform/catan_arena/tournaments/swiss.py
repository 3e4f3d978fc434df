"""Swiss pairing for tables of 3 or 4, pure (no Django).

Each round seats the entries by standing: the best-placed entry still free anchors the
next table and its table-mates come from just below it, so leaders meet leaders. Rules,
in order of weight:

1. never two versions of one author at a table (hard: a round that cannot keep it is
   an error);
2. no table repeating a previous round's exact set of entries, and as few pairs who
   already shared a table as the search finds;
3. table-mates close in standing.

Tables have ``table_size`` seats, topped up with tables of 3 as the round robin does
(:func:`.scheduling._table_sizes`); when no mix seats everyone (5 entries at tables of
4) the lowest-ranked entries with the fewest byes so far sit out. Seats are dealt so
each entry's seat counts stay even (the first seat places first in Catan).

Final order (:func:`tie_break_key`): placing points; then Buchholz, the sum over an
entry's games of the mean placing points (in the whole tournament) of its table-mates,
which rewards having met strong opposition; then mean victory points; then wins; then
the entry id. Deterministic for a given seed.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence

from catan_arena.tournaments.scheduling import Entry, Table, _table_sizes

CANDIDATES = 24
"""Randomised greedy rounds tried (the cheapest is kept)."""
WINDOW = 3
"""Table-mates are looked for among the next ``WINDOW × table size`` free entries by
standing (the whole field if none of them fits)."""


def rounds_needed(entries: int, table_size: int = 4) -> int:
    """A default number of rounds: a Swiss of k-seat tables singles out a leader in
    about log_k(n) rounds (each round the top table narrows the leaders by k); two more
    let the top group meet again and settle the places below it. At least 3."""
    if entries < 3:
        raise ValueError("a Swiss tournament needs at least 3 entries")
    return max(3, math.ceil(math.log(entries) / math.log(table_size)) + 2)


def swiss_round(
    entries: Sequence[Entry],
    scores: Mapping[int, float],
    history: Sequence[Sequence[int]],
    *,
    table_size: int = 4,
    seed: int = 0,
) -> list[Table]:
    """The next round's tables (``round`` = rounds in ``history`` tables + 1 is not
    known here: tables carry round 0; the caller numbers them). ``scores``: placing
    points so far; ``history``: every earlier table's entries in seat order."""
    if table_size not in (3, 4):
        raise ValueError("tables seat 3 or 4 players")
    ids = [e.id for e in entries]
    if len(set(ids)) != len(ids) or len(ids) < 3:
        raise ValueError("a Swiss round needs at least 3 entries with distinct ids")
    author = {e.id: e.author for e in entries}
    if len(set(author.values())) < 3:
        raise ValueError("a Swiss round needs entries of at least 3 different authors")
    met: Counter[tuple[int, int]] = Counter()
    tables_before = {frozenset(t) for t in history}
    seats: dict[int, Counter[int]] = {e: Counter() for e in ids}
    played: Counter[int] = Counter()
    for table in history:
        for a, b in itertools.combinations(sorted(table), 2):
            met[(a, b)] += 1
        for seat, entry in enumerate(table):
            if entry in seats:
                seats[entry][seat] += 1
                played[entry] += 1
    rng = random.Random(seed)
    sizes = _table_sizes(len(ids), table_size)
    seated = sum(sizes)
    order = sorted(ids, key=lambda e: (-scores.get(e, 0.0), rng.random()))
    byes = _byes(order, seated, played)
    field = [e for e in order if e not in byes]
    best: tuple[float, list[list[int]]] | None = None
    for attempt in range(CANDIDATES):
        candidate = _greedy(field, sizes, author, met, tables_before, rng, jitter=attempt > 0)
        if candidate is not None and (best is None or candidate[0] < best[0]):
            best = candidate
    if best is None:
        raise ValueError("no pairing keeps one version per author at every table")
    return [Table(0, tuple(_deal_seats(group, seats))) for group in best[1]]


def _byes(order: list[int], seated: int, played: Counter[int]) -> set[int]:
    """Who sits out: the lowest-ranked among those who sat out least (most games)."""
    out = len(order) - seated
    if out == 0:
        return set()
    most = max(played.values(), default=0)
    ranked = sorted(reversed(order), key=lambda e: most - played[e])  # stable: lowest first
    return set(ranked[:out])


def _greedy(
    field: list[int],
    sizes: list[int],
    author: Mapping[int, int],
    met: Counter[tuple[int, int]],
    tables_before: set[frozenset[int]],
    rng: random.Random,
    *,
    jitter: bool,
) -> tuple[float, list[list[int]]] | None:
    """Tables top-down by standing; its cost, or None if the author rule broke."""
    pool = field[:]
    if jitter:  # swap a few neighbours in the standing: other candidate rounds
        for i in range(len(pool) - 1):
            if rng.random() < 0.3:
                pool[i], pool[i + 1] = pool[i + 1], pool[i]
    rank = {e: i for i, e in enumerate(field)}
    groups: list[list[int]] = []
    cost = 0.0
    for size in sorted(sizes, reverse=True):
        group = [pool.pop(0)]
        while len(group) < size:
            window = pool[: WINDOW * size]
            fits = [e for e in window if all(author[e] != author[g] for g in group)]
            fits = fits or [e for e in pool if all(author[e] != author[g] for g in group)]
            if not fits:
                return None

            def price(e: int, group: list[int] = group) -> float:
                repeats = sum(met[_pair(e, g)] for g in group)
                return 10.0 * repeats + abs(rank[e] - rank[group[0]])

            pick = min(fits, key=price)
            cost += price(pick)
            group.append(pick)
            pool.remove(pick)
        if frozenset(group) in tables_before:
            cost += 1000.0
        groups.append(group)
    return cost, groups


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _deal_seats(group: list[int], seats: Mapping[int, Counter[int]]) -> list[int]:
    """Seat by seat, the member who has sat there least (ties: standing order)."""
    left = list(group)
    order = []
    for seat in range(len(group)):
        pick = min(left, key=lambda e: seats[e][seat])
        left.remove(pick)
        order.append(pick)
    return order


def buchholz(scores: Mapping[int, float], history: Sequence[Sequence[int]]) -> dict[int, float]:
    """For each entry, the sum over its tables of its table-mates' mean score."""
    totals: dict[int, float] = dict.fromkeys(scores, 0.0)
    for table in history:
        for entry in table:
            mates = [scores.get(m, 0.0) for m in table if m != entry]
            if entry in totals and mates:
                totals[entry] += sum(mates) / len(mates)
    return totals


def tie_break_key(
    entry: int,
    scores: Mapping[int, float],
    buchholz_scores: Mapping[int, float],
    mean_points: Mapping[int, float],
    wins: Mapping[int, int],
) -> tuple[float, float, float, int, int]:
    """Sort key of the final Swiss order (best first): see the module docstring."""
    return (
        -scores.get(entry, 0.0),
        -buchholz_scores.get(entry, 0.0),
        -mean_points.get(entry, 0.0),
        -wins.get(entry, 0),
        entry,
    )
