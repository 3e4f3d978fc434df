"""``update_rows`` writes what ``save(update_fields=...)`` writes, row by row, on the
server's PostgreSQL and on the embedded default's SQLite, and touches no other row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_tree import on_embedded_default

FIELDS = [
    "points", "placing", "won", "forfeit", "faults", "fault_count", "decisions",
    "mean_decision_ms", "max_decision_ms", "cpu_seconds", "bank_left_seconds", "log",
]  # fmt: skip


def _fill(rows: list[Any]) -> None:
    """Values of every kind the seats hold: none, zero, JSON objects and lists, floats,
    text with quotes, a backslash and non-ASCII letters."""
    for row in rows:
        s = row.seat
        row.points = 10 if s == 0 else s
        row.placing = None if s == 3 else s + 1
        row.won = s == 0
        row.forfeit = {"reason": "time's up", "turn": 7} if s == 2 else None
        row.faults = [{"kind": "illegal", "detail": 'say "no" \\ ñ'}] * s
        row.fault_count = s
        row.decisions = 100 + s
        row.mean_decision_ms = 0.5 + s
        row.max_decision_ms = None if s == 1 else 12.25
        row.cpu_seconds = 0.0
        row.bank_left_seconds = 9.75
        row.log = f"seat {s}: it's “fine”\n" * s


def scenario() -> list[list[Any]]:
    """Two matches' seats given the same values, one written by ``save`` and the other
    by ``update_rows``, a third left alone; every seat as read back (JSON-ready)."""
    from catan_arena.core.row_updates import update_rows
    from catan_arena.matches.services import MatchLimits, create_match
    from catan_arena.submissions.services import register_builtins

    version = register_builtins()[0]
    saved, updated, untouched = (
        create_match([version] * 4, limits=MatchLimits(1.0, 10.0)) for _ in range(3)
    )
    by_save, by_update = (list(m.seats.order_by("seat")) for m in (saved, updated))
    _fill(by_save)
    _fill(by_update)
    for row in by_save:
        row.save(update_fields=FIELDS)
    assert update_rows(by_update, FIELDS) == 4
    return [
        [list(r) for r in m.seats.order_by("seat").values_list(*FIELDS)]
        for m in (saved, updated, untouched)
    ]


def _check(read_back: list[list[Any]]) -> None:
    saved, updated, untouched = read_back
    assert updated == saved
    assert saved[2][3] == {"reason": "time's up", "turn": 7}  # the values did arrive
    assert saved[1][4] == [{"kind": "illegal", "detail": 'say "no" \\ ñ'}]
    assert saved[3][1] is None and saved[1][8] is None and saved[0][2] is True
    assert all(row[0] is None and row[11] == "" for row in untouched)


@pytest.mark.django_db
def test_one_statement_writes_what_saving_each_row_writes_on_postgresql() -> None:
    _check(scenario())


def test_one_statement_writes_what_saving_each_row_writes_on_sqlite(tmp_path: Path) -> None:
    _check(on_embedded_default(tmp_path, __name__, "scenario"))


@pytest.mark.django_db
def test_rows_of_two_models_or_unsaved_rows_are_refused() -> None:
    from catan_arena.core.row_updates import update_rows
    from catan_arena.matches.models import Match, MatchSeat

    with pytest.raises(ValueError, match="saved rows of one model"):
        update_rows([MatchSeat(seat=0)], ["points"])
    with pytest.raises(ValueError, match="saved rows of one model"):
        update_rows([Match(pk=1), MatchSeat(pk=1)], ["points"])
    assert update_rows([], ["points"]) == 0
