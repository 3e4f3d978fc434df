"""``execute_together`` runs its statements in order, in one call on the server's
PostgreSQL (one round trip) and one call each on the embedded default's SQLite, with
every value bound as a value (text holding ``;``, quotes and ``%s`` stays text); a
recorded result's tallies take one call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.serve_tree import on_embedded_default

HOSTILE = "x'); DROP TABLE batch_probe; -- 100% %s ; ñ"


def scenario() -> dict[str, Any]:
    """Three statements, each depending on the one before, against a table of its own;
    how many cursor calls they took and what the table holds after."""
    from django.db import connection

    from catan_arena.core.statement_batches import execute_together

    calls: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        calls.append(sql)
        return execute(sql, params, many, context)

    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE batch_probe (k integer PRIMARY KEY, v text)")
    with connection.execute_wrapper(count):
        execute_together(
            [
                ("INSERT INTO batch_probe (k, v) VALUES (%s, %s)", [1, HOSTILE]),
                ("INSERT INTO batch_probe (k, v) VALUES (%s, %s)", [2, "two"]),
                ("UPDATE batch_probe SET v = v || %s WHERE k = %s", ["!", 2]),
            ]
        )
        execute_together([])
    with connection.cursor() as cursor:
        cursor.execute("SELECT k, v FROM batch_probe ORDER BY k")
        rows = [list(r) for r in cursor.fetchall()]
    return {"calls": len(calls), "rows": rows}


@pytest.mark.django_db
def test_statements_run_in_order_in_one_call_on_postgresql() -> None:
    assert scenario() == {"calls": 1, "rows": [[1, HOSTILE], [2, "two!"]]}


def test_statements_run_in_order_one_call_each_on_sqlite(tmp_path: Path) -> None:
    result = on_embedded_default(tmp_path, __name__, "scenario")
    assert result == {"calls": 3, "rows": [[1, HOSTILE], [2, "two!"]]}


@pytest.mark.django_db
def test_a_results_tallies_take_one_call_on_postgresql() -> None:
    from django.db import connection

    from catan_arena.matches.models import Match, Meeting, SeatTally
    from catan_arena.matches.services import MatchLimits, create_match
    from catan_arena.matches.tallies import count_result
    from catan_arena.submissions.services import register_builtins

    versions = register_builtins()[:2]
    match = create_match([versions[0], versions[1]] * 2, limits=MatchLimits(1.0, 10.0))
    match.status = Match.Status.FINISHED
    seats = list(match.seats.order_by("seat"))
    for seat in seats:
        seat.placing, seat.points, seat.won = seat.seat + 1, 10 - seat.seat, seat.seat == 0
        seat.save()
    calls: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        calls.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        count_result(match, seats)
    assert len(calls) == 1
    assert SeatTally.objects.filter(games=1).count() == 4  # two versions, two seats each
    assert Meeting.objects.get(version=versions[0], opponent=versions[1]).games == 4
