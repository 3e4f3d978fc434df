"""Several SQL statements sent to the database in one round trip where it can take them.

Every statement a worker sends while it records a result waits for its answer, and with
every core busy playing games each answer waits for PostgreSQL's backend to be scheduled
(~1.5 ms a statement with two workers, where it takes ~0.3 ms with one). psycopg's
client-side binding cursor, Django's default, sends a query's text with its values bound
in, and PostgreSQL runs several statements of one text in order, in one round trip.
SQLite (the embedded default) and PostgreSQL with ``server_side_binding`` take one
statement a call: there, the statements are sent one after another."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection

Statement = tuple[str, Sequence[Any]]
"""A statement's SQL (``%s`` placeholders) and its values."""


def takes_several_statements() -> bool:
    """Whether one call of this connection's cursor may hold several statements."""
    options = connection.settings_dict.get("OPTIONS", {})
    return connection.vendor == "postgresql" and options.get("server_side_binding") is not True


def execute_together(statements: Sequence[Statement]) -> None:
    """Run ``statements`` in order: in one call where the database takes several, else
    one call each. Their results are not read (statements that only write)."""
    if not statements:
        return
    with connection.cursor() as cursor:
        if len(statements) > 1 and takes_several_statements():
            sql = ";\n".join(sql for sql, _ in statements)
            cursor.execute(sql, [value for _, values in statements for value in values])
            return
        for sql, values in statements:
            cursor.execute(sql, values)
