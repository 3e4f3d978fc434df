"""Shared console output helpers."""

from __future__ import annotations

import sys


def error(message: str) -> None:
    """Print ``error: message`` as one line on stderr (never wrapped)."""
    sys.stderr.write("error: " + " ".join(message.split()) + "\n")
