"""Tuning variant: ``search`` at horizon 4 (as ``horizon4.py``) whose samples deal the
opponents' resource cards uniformly from the cards unaccounted for, as determinization
did before it followed them through the public history
(:class:`engine.hand_tracker.HandTracker`): the baseline that measures the tracker.
"""

from __future__ import annotations

import math

import bots.builtin.search as search
import engine.determinize as determinize

search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched
determinize.TRACK_HANDS = False


class UniformHandsPlayer(search.SearchPlayer):
    name = "search, horizon 4, hands dealt uniformly"
