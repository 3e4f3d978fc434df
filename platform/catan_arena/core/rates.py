"""A rate such as ``30/hour``, defined once: its periods, its parsing and its words.

No Django: the settings check every rate with :func:`parse_rate` at start-up (a bad
value stops it), and :mod:`catan_arena.core.throttle` counts against the parsed rate.
"""

from __future__ import annotations

from dataclasses import dataclass

PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
"""A rate's periods in seconds; a period may be written by its first letter (``10/m``)."""


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    def __str__(self) -> str:
        words = {seconds: name for name, seconds in PERIODS.items()}
        per = words.get(self.seconds, f"{self.seconds} s")
        return f"{self.count} per {per}"


def parse_rate(text: str) -> Rate:
    """``count/period`` (``30/hour``, ``10/m``) as a :class:`Rate`; ``ValueError`` naming
    what is wrong otherwise."""
    count, slash, period = text.strip().partition("/")
    seconds = next((s for name, s in PERIODS.items() if period in (name, name[0])), None)
    if not slash or not count.isascii() or not count.isdigit() or seconds is None:
        periods = ", ".join(PERIODS)
        raise ValueError(f"{text!r} is not a rate: write COUNT/PERIOD, a period one of {periods}")
    return Rate(int(count), seconds)
