"""Tuning variant: ``search`` at horizon 4 (as ``horizon4.py``) whose samples deal the
opponents' resource cards uniformly from the cards unaccounted for, as determinization
did before it followed them through the public history
(:class:`engine.hand_tracker.HandTracker`): the baseline that measures the tracker.

Seeds 720000-720299, 24 samples a decision (``benchmarks/paired_inprocess.py``, against
three heuristics): this variant 174/300 = 58.0% (the same games, to the game, as
``horizon4.py`` before the tracker landed), ``horizon4.py`` with the tracker **196/300
= 65.3%**, paired +7.3 points (95% interval ±6.6): the whole of what
``oracle_hands.py``'s true resource cards gave (194/300).
"""

from __future__ import annotations

import math

import bots.builtin.search as search
import engine.determinize as determinize

search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched
determinize.TRACK_HANDS = False


class UniformHandsPlayer(search.SearchPlayer):
    name = "search, horizon 4, hands dealt uniformly"
