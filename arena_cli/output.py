"""Shared console output helpers."""

from __future__ import annotations

import sys

from rich.console import Console

TABLE_WIDTH_WHEN_PIPED = 140


def table_console(*, stderr: bool = False) -> Console:
    """A console for tables: the terminal's width, or a wide fixed width when piped."""
    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else TABLE_WIDTH_WHEN_PIPED
    return Console(stderr=stderr, width=width)


def error(message: str) -> None:
    """Print ``error: message`` as one line on stderr (never wrapped)."""
    sys.stderr.write("error: " + " ".join(message.split()) + "\n")
