"""What a bot writes is data: a bot whose name, exception text, traceback and log carry
NUL, terminal escapes, bidi overrides and a megabyte of junk plays a real match in the
FULL sandbox, and the whole result — replay, faults, log — goes into a real PostgreSQL
jsonb column. The positive control: the same raw text is refused by PostgreSQL."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.sandbox.hostile.nul_writer import POISON
from tests.support.hostile import play_hostile
from tests.support.services import suite_services


@pytest.fixture
def table() -> Iterator[tuple[psycopg.Connection[tuple[object, ...]], str]]:
    """A table of its own in the suite's PostgreSQL."""
    conn = psycopg.connect(suite_services().postgres_url(), autocommit=True, connect_timeout=5)
    name = f"bot_text_{uuid.uuid4().hex[:12]}"
    conn.execute(f"CREATE TABLE {name} (id serial PRIMARY KEY, data jsonb NOT NULL)")
    try:
        yield conn, name
    finally:
        conn.execute(f"DROP TABLE {name}")
        conn.close()


def test_a_poisoned_match_result_is_stored_in_jsonb(
    table: tuple[psycopg.Connection[tuple[object, ...]], str],
) -> None:
    conn, name = table
    played = play_hostile("nul_writer")
    result = played.result
    record = {
        "replay": result.replay.to_dict(),
        "faults": [[f.to_dict() | {"detail": f.detail} for f in seat] for seat in result.faults],
        "logs": result.logs,
        "names": [s["name"] for s in result.replay.seats],
    }
    conn.execute(f"INSERT INTO {name} (data) VALUES (%s)", [Jsonb(record)])
    (stored,) = conn.execute(f"SELECT data FROM {name}").fetchone() or (None,)
    text = json.dumps(stored)
    assert "\\u0000" not in text and "\\u001b" not in text and "\\u202e" not in text
    first = result.faults[0][0]
    assert "RuntimeError" in first.message and len(first.message) <= 2_000
    assert len(first.detail) <= 8_000
    assert "ab" in result.logs[0]  # the log is kept, cleaned


def test_positive_control_postgres_refuses_the_raw_text(
    table: tuple[psycopg.Connection[tuple[object, ...]], str],
) -> None:
    conn, name = table
    with pytest.raises(psycopg.DataError):
        conn.execute(f"INSERT INTO {name} (data) VALUES (%s)", [Jsonb({"message": POISON})])
