"""Swiss pairing (pure), beyond test_swiss_pairing.py: tables of 3, byes and the author
rule together, crowded fields refused clearly, results drawn at random, order and seed
determinism, speed, and the full tie-break order."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from catan_arena.tournaments.scheduling import Entry, _table_sizes
from catan_arena.tournaments.swiss import buchholz, rounds_needed, swiss_round, tie_break_key

History = list[tuple[int, ...]]


def play(tables: History, scores: Counter[int], rng: random.Random | None = None) -> None:
    """Placing points for a round: lower ids place better, or a random order."""
    for table in tables:
        order = sorted(table) if rng is None else rng.sample(table, len(table))
        for place, entry in enumerate(order):
            scores[entry] += len(table) - 1 - place


def run(
    field: list[Entry], rounds: int, *, table_size: int = 4, results: int | None = None
) -> History:
    """``rounds`` Swiss rounds of ``field``, every table in seat order, oldest first."""
    rng = None if results is None else random.Random(results)
    scores: Counter[int] = Counter()
    history: History = []
    for number in range(rounds):
        round_ = swiss_round(field, scores, history, table_size=table_size, seed=number)
        tables = [t.seats for t in round_]
        history += tables
        play(tables, scores, rng)
    return history


def repeated_pairs(history: History) -> int:
    """Meetings of pairs beyond their first."""
    pairs = Counter(p for t in history for p in itertools.combinations(sorted(t), 2))
    return sum(count - 1 for count in pairs.values())


@pytest.mark.parametrize("n", range(3, 41))
def test_tables_of_three_seat_all_but_the_remainder(n: int) -> None:
    field = [Entry(i, i) for i in range(n)]
    for number, tables in enumerate(_rounds(field, 3, table_size=3)):
        seated = [e for t in tables for e in t]
        assert len(seated) == len(set(seated)) == n - n % 3, (n, number)
        assert all(len(t) == 3 for t in tables)


def _rounds(field: list[Entry], rounds: int, *, table_size: int) -> list[History]:
    history = run(field, rounds, table_size=table_size)
    per_round = len(_table_sizes(len(field), table_size))
    return [history[i : i + per_round] for i in range(0, len(history), per_round)]


@pytest.mark.parametrize(
    ("field", "table_size", "message"),
    [
        ([Entry(1, 1), Entry(2, 2)], 4, "at least 3 entries"),
        ([Entry(1, 1), Entry(1, 2), Entry(3, 3)], 4, "distinct ids"),
        ([Entry(i, i) for i in range(8)], 5, "3 or 4 players"),
        ([Entry(i, min(i, 3)) for i in range(8)], 4, r"too many versions.*author 3: 5"),
        ([Entry(i, max(i - 2, 0)) for i in range(6)], 3, r"too many versions.*author 0: 3"),
    ],
)
def test_fields_that_cannot_be_paired_are_refused(
    field: list[Entry], table_size: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        swiss_round(field, {}, [], table_size=table_size)


def test_byes_rotate_with_five_entries() -> None:
    history = run([Entry(i, i) for i in range(5)], 5, results=1)
    assert all(len(t) == 4 for t in history)
    assert Counter(e for t in history for e in t) == dict.fromkeys(range(5), 4)


def test_the_bye_goes_where_the_author_rule_needs_it() -> None:
    field = [Entry(0, 7), Entry(1, 7), Entry(2, 8), Entry(3, 9), Entry(4, 10)]
    scores = {0: 9.0, 1: 8.0, 2: 1.0, 3: 1.0, 4: 0.0}  # 4 is last, but 0 and 1 clash
    (table,) = swiss_round(field, scores, [])
    assert sorted(table.seats) == [0, 2, 3, 4]  # the lower-ranked of author 7's sits out


@pytest.mark.parametrize("trial", range(40))
def test_the_author_rule_never_fails_on_a_field_that_allows_it(trial: int) -> None:
    rng = random.Random(trial)
    n = rng.randint(6, 32)
    tables = len(_table_sizes(n, 4))
    authors = [rng.randrange(rng.randint(3, n)) for _ in range(n)]
    versions = Counter(authors)
    for i, author in enumerate(authors):  # at most one version a table: a new author
        if versions[author] > tables:
            versions[author] -= 1
            authors[i] = n + i
    field = [Entry(i, a) for i, a in enumerate(authors)]
    for table in run(field, 4, results=trial):
        assert len({authors[e] for e in table}) == len(table), (authors, table)


def test_an_author_with_a_version_at_every_table_is_paired() -> None:
    # 13 entries: tables of 4, 3, 3, 3; author 0 has a version for each of them.
    authors = [0, 1, 2, 0, 3, 4, 0, 5, 6, 0, 1, 2, 7]
    field = [Entry(i, a) for i, a in enumerate(authors)]
    history = run(field, 3, results=2)
    assert len(history) == 12
    for table in history:
        assert len({authors[e] for e in table}) == len(table)
        assert sum(authors[e] == 0 for e in table) == 1


def test_the_three_table_winners_head_round_two() -> None:
    field = [Entry(i, i) for i in range(12)]
    first = [t.seats for t in swiss_round(field, {}, [], seed=3)]
    scores: Counter[int] = Counter()
    play(first, scores)
    winners = {min(t) for t in first}
    top, *rest = swiss_round(field, scores, first, seed=4)
    assert winners < set(top.seats)
    assert all(scores[e] <= 1 for e in rest[-1].seats)  # the bottom table: 1s and 0s


@pytest.mark.parametrize("results", [None, *range(8)])
def test_twelve_entries_repeat_no_table_and_few_pairs(results: int | None) -> None:
    history = run([Entry(i, i) for i in range(12)], 3, results=results)
    assert len({frozenset(t) for t in history}) == len(history) == 9
    assert repeated_pairs(history) <= 9 < _naive_repeats(results)


def _naive_repeats(results: int | None) -> int:
    """Repeated pairs of a plain top-down split by score (ties: id), same results."""
    rng = None if results is None else random.Random(results)
    scores: Counter[int] = Counter()
    history: History = []
    for _ in range(3):
        order = sorted(range(12), key=lambda e: (-scores[e], e))
        tables = [tuple(order[i : i + 4]) for i in range(0, 12, 4)]
        history += tables
        play(tables, scores, rng)
    return repeated_pairs(history)


@pytest.mark.parametrize("results", range(10))
def test_no_one_of_eight_sits_first_more_than_twice_in_four_rounds(results: int) -> None:
    history = run([Entry(i, i) for i in range(8)], 4, results=results)
    first = Counter(t[0] for t in history)
    assert max(first.values()) <= 2, first
    assert all(len(set(t)) == 4 for t in history)


def test_seat_counts_stay_even_over_many_rounds() -> None:
    history = run([Entry(i, i) for i in range(16)], 8, results=5)
    for entry in range(16):
        counts = Counter(t.index(entry) for t in history if entry in t)
        assert max(counts.values()) - min(counts[s] for s in range(4)) <= 2, (entry, counts)


def test_pairing_depends_on_the_seed_not_on_the_order_of_entries() -> None:
    field = [Entry(i, i % 9) for i in range(30)]
    scores = {i: float(i % 5) for i in range(30)}
    history = [tuple(range(i, i + 4)) for i in range(0, 28, 4)]
    once = swiss_round(field, scores, history, seed=7)
    assert swiss_round(field[::-1], scores, history, seed=7) == once
    assert swiss_round(list(field), dict(scores), list(history), seed=7) == once
    others = {tuple(t.seats for t in swiss_round(field, scores, history, seed=s)) for s in (1, 2)}
    assert len(others | {tuple(t.seats for t in once)}) > 1  # ties among equal scores move


def test_two_hundred_entries_are_all_seated_every_round() -> None:
    """A large field: every entry seated once in each of six rounds (speed belongs to
    benchmarks, not to a timed test)."""
    field = [Entry(i, i // 2) for i in range(200)]
    scores: Counter[int] = Counter()
    history: History = []
    rng = random.Random(0)
    for number in range(6):
        tables = [t.seats for t in swiss_round(field, scores, history, seed=number)]
        assert sorted(e for t in tables for e in t) == list(range(200))
        history += tables
        play(tables, scores, rng)


def test_rounds_needed_for_tables_of_three() -> None:
    assert [rounds_needed(n, 3) for n in (3, 9, 10, 27, 28, 243, 244)] == [3, 4, 5, 5, 6, 7, 8]
    with pytest.raises(ValueError):
        rounds_needed(2)


def test_the_full_tie_break_order() -> None:
    # Placing points, then Buchholz, then mean victory points, then wins, then id.
    scores = {1: 5.0, 2: 5.0, 3: 5.0, 4: 5.0, 5: 5.0, 6: 8.0, 7: 0.0, 8: 0.0}
    history = [(1, 6, 7), (2, 6, 7), (3, 6, 7), (4, 6, 7), (5, 7, 8)]
    tie = buchholz(scores, history)
    assert tie == {1: 4.0, 2: 4.0, 3: 4.0, 4: 4.0, 5: 0.0, 6: 10.0, 7: 28.5, 8: 2.5}
    means = {1: 6.0, 2: 7.0, 3: 7.0, 4: 7.0, 5: 9.0, 6: 2.0, 7: 1.0, 8: 10.0}
    wins = {1: 3, 2: 1, 3: 2, 4: 2, 5: 3, 6: 0, 7: 0, 8: 3}
    order = sorted(scores, key=lambda e: tie_break_key(e, scores, tie, means, wins))
    assert order == [6, 3, 4, 2, 1, 5, 7, 8]
