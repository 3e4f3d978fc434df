"""Tuning variant: ``search`` with the 1 s clock's rollouts (four turns past the current
one, as ``horizon4.py``) scored by the value network of
:mod:`bots.builtin.search_value_net` instead of the landed linear model of
:mod:`bots.builtin.search_value`.

Not yet measured to the end: a 600-game run (seeds 710000-710599, 24 samples a
decision, as ``horizon4.py``'s 347/600) ran out of the session; the network's evaluation
costs ~2.6x the linear model's (~0.6 ms against 0.22 ms a position).
"""

from __future__ import annotations

import math

import bots.builtin.search as search
import bots.builtin.search_rollout as search_rollout
from bots.builtin.search_value_net import win_share

search.HORIZONS = ((math.inf, 4),)
search_rollout.win_share = win_share


class ValueNetPlayer(search.SearchPlayer):
    name = "search, value network, horizon 4"
