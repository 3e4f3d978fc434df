"""Shared console output helpers."""

from __future__ import annotations

import sys
from collections.abc import Collection, Sequence

from rich import box
from rich.console import Console
from rich.table import Table

TABLE_WIDTH_WHEN_PIPED = 140


def table_console(*, stderr: bool = False) -> Console:
    """A console for tables: the terminal's width, or a wide fixed width when piped."""
    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else TABLE_WIDTH_WHEN_PIPED
    return Console(stderr=stderr, width=width)


def fitted_table(columns: Sequence[str], *, text: Collection[str] = ("bot",)) -> Table:
    """A table of figures that fits 80 columns, a terminal's usual width and what rich
    assumes when the output is piped: one space between columns, no vertical rules,
    figures right-aligned and never wrapped; the ``text`` columns (a bot's name) are
    never cut: if the table cannot fit they wrap, whole. No title (it would wrap to the
    table's width): print it on the line above."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 0), show_edge=False)
    for column in columns:
        if column in text:
            table.add_column(column, overflow="fold")
        else:
            table.add_column(column, justify="right", no_wrap=True)
    return table


def error(message: str) -> None:
    """Print ``error: message`` as one line on stderr (never wrapped)."""
    sys.stderr.write("error: " + " ".join(message.split()) + "\n")
