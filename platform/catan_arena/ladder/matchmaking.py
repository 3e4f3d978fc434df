"""Who plays whom next on the continuous ladder, pure (no Django).

Each tick fills up to ``tables`` new tables from the candidates (the playing versions):

1. The candidate who most needs games anchors the next table: fewest games (rated plus
   in flight), so a new version gets its placement games first; ties in random order.
2. The anchor's opponents are the free candidates of other authors closest to its
   OpenSkill μ (ties broken by fewer games, then at random), one version per author at a
   table. A table has ``table_size`` seats, or one fewer when not enough authors are free.
3. Seats are dealt so each version's seat counts stay even: seat by seat, the version
   that has sat there least (relative to its games) takes it.

A version sits in at most ``max_busy`` tables at a time (counting those planned in the
same call); idle versions are always preferred, so a version sits at a second table only
when the field is too small to fill the tables otherwise (six bots, two workers). A
newcomer (no games, none in flight) waits for nobody: its first table may seat
opponents one table over that limit (a small field's versions are all busy most of the
time, and its author is watching for its first game).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.config import PLAYER_COUNTS


@dataclass(frozen=True)
class Candidate:
    version: int
    author: int
    """Versions with equal ``author`` never share a table."""
    games: int
    """Ladder games played (rated)."""
    mu: float
    busy: int = 0
    """Ladder matches queued or running."""
    seats: tuple[int, ...] = field(default=())
    """How often it has sat in seat 0, 1, 2, 3 of its ladder games."""


def plan_tables(
    candidates: Sequence[Candidate],
    *,
    tables: int,
    table_size: int = 4,
    max_busy: int = 1,
    rng: random.Random | None = None,
) -> list[list[int]]:
    """Up to ``tables`` new tables, each the versions in seat order."""
    if table_size not in PLAYER_COUNTS:
        raise ValueError("a ladder table seats 3 or 4")
    rng = rng or random.Random()
    pool = list(candidates)
    rng.shuffle(pool)  # random order among equals (the sorts below are stable)
    busy = {c.version: c.busy for c in pool}
    planned: list[list[int]] = []
    while len(planned) < tables:
        free = [c for c in pool if busy[c.version] < max_busy]
        free.sort(key=lambda c: (busy[c.version], c.games + busy[c.version]))
        if free and is_newcomer(free[0], busy[free[0].version]):
            anchor = free[0]
            over = [c for c in pool if c is not anchor and busy[c.version] <= max_busy]
            free = [anchor, *over]
        table = _table_around(free, table_size, busy)
        if table is None:
            break
        for member in table:
            busy[member.version] += 1
        planned.append([c.version for c in _deal_seats(table, rng)])
    return planned


def is_placing(candidate: Candidate) -> bool:
    """No ladder game played yet: its first tables are what its author waits for."""
    return candidate.games == 0


def is_newcomer(candidate: Candidate, busy: int) -> bool:
    """Placing, and none of its tables in flight (``busy``: its tables so far)."""
    return is_placing(candidate) and busy == 0


def _table_around(
    free: list[Candidate], table_size: int, busy: dict[int, int]
) -> list[Candidate] | None:
    """The neediest free candidate and its closest opponents of other authors, idle ones
    first (None when fewer than 3 authors are free: then nobody can be seated)."""
    if not free:
        return None
    anchor = free[0]
    chosen, authors = [anchor], {anchor.author}

    def nearness(c: Candidate) -> tuple[int, float, int]:
        return busy[c.version], abs(c.mu - anchor.mu), c.games + busy[c.version]

    for candidate in sorted(free[1:], key=nearness):
        if candidate.author not in authors:
            chosen.append(candidate)
            authors.add(candidate.author)
            if len(chosen) == table_size:
                break
    return chosen if len(chosen) >= 3 else None


def _deal_seats(table: list[Candidate], rng: random.Random) -> list[Candidate]:
    """Seat by seat, the member who has sat there least (as a share of its games)."""
    left = list(table)
    rng.shuffle(left)
    order = []
    for seat in range(len(table)):

        def share(c: Candidate, seat: int = seat) -> float:
            sat = c.seats[seat] if seat < len(c.seats) else 0
            return sat / max(1, sum(c.seats))

        best = min(left, key=share)
        left.remove(best)
        order.append(best)
    return order
