"""Tuning variant: ``search`` with the 1 s clock's rollouts (four turns past the current
one) at any clock, so that in-process runs with capped samples (clocks frozen, where the
bot would pick horizon 0) stand for the 1 s bot.

Seeds 710000-710599, 24 samples a decision (``benchmarks/paired_inprocess.py``, against
three heuristics): 347/600 = 57.8%; sandboxed at 1 s the landed bot won 58.0%.
"""

from __future__ import annotations

import math

import bots.builtin.search as search

search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched


class Horizon4Player(search.SearchPlayer):
    name = "search, horizon 4"
