"""A decision's deadline, read through a replaceable clock (tests pass a scripted one)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Deadline:
    at: float
    """Clock reading after which no new unit of search work starts."""
    clock: Callable[[], float] = time.perf_counter
    also: Deadline | None = None
    """A deadline on another clock (CPU time beside wall-clock time): passed with it."""

    def passed(self) -> bool:
        return self.clock() > self.at or (self.also is not None and self.also.passed())
