"""Swiss pairing for tables of 3 or 4, pure (no Django).

Each round seats the entries by standing: the best-placed entry still free anchors the
next table and its table-mates come from just below it, so leaders meet leaders. Rules,
in order of weight:

1. never two versions of one author at a table (hard: a round that cannot keep it, one
   author having more versions in the round than it has tables, is an error; otherwise
   an author with as many versions left as tables left is seated at once, so the rule
   never fails on a field that allows it);
2. no table repeating a previous round's exact set of entries, and as few pairs who
   already shared a table as the search finds;
3. table-mates close in standing.

Tables have ``table_size`` seats, topped up with tables of 3 as the round robin does
(:func:`.scheduling._table_sizes`): with tables of 4 every count from 3 up but 5 seats
everyone; 5 plays one table of 4 and a bye, tables of 3 leave ``n % 3`` byes. Byes go
to the lowest-ranked among the entries that sat out least (a bye moves up only where the
author rule needs it). Fewer than 3 entries, or of 3 authors, is an error. Seats are
dealt so each entry's seat counts stay even, the first seat before the others (the
first seat places first in Catan).

Final order (:func:`tie_break_key`): placing points (a table of n gives n - place:
3, 2, 1, 0 at a table of 4); then Buchholz, the sum over an entry's games of the mean
placing points (in the whole tournament) of its table-mates, which rewards having met
strong opposition; then mean victory points; then wins; then the entry id (lower
first). Deterministic for a given seed: the order the entries are given in does not
matter.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence

from catan_arena.tournaments.scheduling import Entry, Table, _table_sizes
from engine.config import PLAYER_COUNTS

CANDIDATES = 24
"""Randomised greedy rounds tried (the cheapest is kept)."""
WINDOW = 3
"""Table-mates are looked for among the next ``WINDOW × table size`` free entries by
standing (the whole field if none of them fits)."""
REPEATED_TABLE = 1000.0
"""Cost of a table whose exact set of entries already played together."""
REPEATED_PAIR = 10.0
"""Cost of each earlier shared table of a new table-mate (one place of standing: 1)."""


def rounds_needed(entries: int, table_size: int = 4) -> int:
    """A default number of rounds: a Swiss of k-seat tables singles out a leader in
    about log_k(n) rounds (each round the top table narrows the leaders by k); two more
    let the top group meet again and settle the places below it. At least 3 (4 entries:
    3; 16: 4; 64: 5; 200: 6)."""
    if table_size not in PLAYER_COUNTS:
        raise ValueError("tables seat 3 or 4 players")
    if entries < 3:
        raise ValueError("a Swiss tournament needs at least 3 entries")
    narrowing = 0  # ceil(log_k(entries)), in integers: no rounding at exact powers
    while table_size**narrowing < entries:
        narrowing += 1
    return max(3, narrowing + 2)


def swiss_round(
    entries: Sequence[Entry],
    scores: Mapping[int, float],
    history: Sequence[Sequence[int]],
    *,
    table_size: int = 4,
    seed: int = 0,
) -> list[Table]:
    """The next round's tables, seats in order (``round`` is 0: the caller numbers
    them). ``scores``: placing points so far (missing: 0; equal scores are ordered by
    ``seed``); ``history``: every earlier table's entries in seat order. ``ValueError``
    if the round cannot be paired (see the module docstring)."""
    if table_size not in PLAYER_COUNTS:
        raise ValueError("tables seat 3 or 4 players")
    ids = sorted(e.id for e in entries)
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
    sizes = sorted(_table_sizes(len(ids), table_size), reverse=True)
    order = sorted(ids, key=lambda e: (-scores.get(e, 0.0), rng.random()))
    byes = _byes(order, sum(sizes), played, author, len(sizes))
    field = [e for e in order if e not in byes]
    best: tuple[float, list[list[int]]] | None = None
    for attempt in range(CANDIDATES):
        candidate = _greedy(field, sizes, author, met, tables_before, rng, jitter=attempt > 0)
        if candidate is not None and (best is None or candidate[0] < best[0]):
            best = candidate
    if best is None:  # not reached: _byes checked the field can be seated
        raise ValueError("no pairing keeps one version per author at every table")
    return [Table(0, _deal_seats(group, seats)) for group in best[1]]


def _byes(
    order: list[int],
    seated: int,
    played: Counter[int],
    author: Mapping[int, int],
    tables: int,
) -> set[int]:
    """Who sits out: the lowest-ranked among those who sat out least (most games),
    first any an author has beyond one a table. ``ValueError`` if that is not enough."""
    out = len(order) - seated
    versions = Counter(author[e] for e in order)
    excess = {a: n - tables for a, n in versions.items() if n > tables}
    if sum(excess.values()) > out:
        crowded = ", ".join(f"author {a}: {versions[a]}" for a in sorted(excess))
        raise ValueError(
            f"too many versions of one author for {tables} table(s) a round ({crowded}):"
            " two would share a table"
        )
    most = max(played.values(), default=0)
    ranked = sorted(reversed(order), key=lambda e: most - played[e])  # stable: lowest first
    byes: list[int] = []
    for entry in ranked:
        if excess.get(author[entry], 0) > 0:
            excess[author[entry]] -= 1
            byes.append(entry)
    byes += [e for e in ranked if e not in byes][: out - len(byes)]
    return set(byes)


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
    """Tables top-down by standing (``sizes`` largest first); its cost, or None if the
    author rule broke."""
    pool = field[:]
    if jitter:  # swap a few neighbours in the standing: other candidate rounds
        for i in range(len(pool) - 1):
            if rng.random() < 0.3:
                pool[i], pool[i + 1] = pool[i + 1], pool[i]
    rank = {e: i for i, e in enumerate(field)}
    left = Counter(author[e] for e in pool)
    groups: list[list[int]] = []
    cost = 0.0
    for tables_left, size in zip(range(len(sizes), 0, -1), sizes, strict=True):
        group = [pool.pop(0)]
        left[author[group[0]]] -= 1
        # An author with a version for every table left must sit at this one.
        due = {a for a, n in left.items() if n >= tables_left} - {author[group[0]]}
        while len(group) < size:
            taken = {author[g] for g in group}
            if due:
                fits = [e for e in pool if author[e] in due]
            else:
                window = pool[: WINDOW * size]
                fits = [e for e in window if author[e] not in taken]
                fits = fits or [e for e in pool if author[e] not in taken]
            if not fits:
                return None

            def price(e: int, group: list[int] = group, size: int = size) -> float:
                repeats = sum(met[_pair(e, g)] for g in group)
                again = len(group) + 1 == size and frozenset([*group, e]) in tables_before
                return (
                    REPEATED_TABLE * again + REPEATED_PAIR * repeats + abs(rank[e] - rank[group[0]])
                )

            pick = min(fits, key=price)
            cost += price(pick)
            group.append(pick)
            pool.remove(pick)
            left[author[pick]] -= 1
            due.discard(author[pick])
        groups.append(group)
    return cost, groups


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _deal_seats(group: list[int], seats: Mapping[int, Counter[int]]) -> tuple[int, ...]:
    """The seat order whose first seat goes to a member who sat there least, and then
    whose members have sat least in their seats (ties: standing order)."""

    def cost(order: tuple[int, ...]) -> tuple[int, int]:
        return seats[order[0]][0], sum(seats[e][s] for s, e in enumerate(order))

    return min(itertools.permutations(group), key=cost)


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
