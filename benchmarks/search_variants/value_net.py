"""Tuning variant: ``search`` with the 1 s clock's rollouts (four turns past the current
one, as ``horizon4.py``) scored by the value network of
:mod:`bots.builtin.search_value_net` instead of the landed linear model of
:mod:`bots.builtin.search_value`.

Seeds 710000-710599, 24 samples a decision (``benchmarks/paired_inprocess.py``, against
three heuristics), with the first prototype of the network's fit (held-out log-loss
1.043; the weights landed beside it 1.042; the bot's linear model 1.139): 362/600 =
60.3% against ``horizon4.py``'s 347/600 = 57.8% (+2.5 points; a paired 600-game
difference has a 95% interval of about ±4.5). A linear model on the same 48 features
(held-out 1.060; a scratch variant) won 360/600. A far better position value buys
little here: not kept in the bot yet. Tried sandboxed (stop 41): the bot scoring its
rollouts of four turns or more (its clock of 0.15 s a decision and up) with the network,
its 100 ms clock unchanged, ``make bench-strength``'s two search rows on fresh seeds
27003552566477+: 100 ms 130/200 = 65.0% [58.2-71.3], 1 s 138/200 = 69.0% [62.3-75.0]
(153.8 ms a decision, 13.9 s of CPU a game, no faults, bank unused), paired +4.0
points [-4.0 to +11.9], not clearly above; the landed bot's five 1 s runs before it
pooled 684/1000 = 68.4%. No measurable gain at the real clock either: not kept. The
network costs ~2.6x the linear model's evaluation (~0.6 ms against 0.22 ms a position),
which a real clock pays in samples.
"""

from __future__ import annotations

import math

import bots.builtin.search as search
import bots.builtin.search_rollout as search_rollout
from bots.builtin.search_value_net import win_share

search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched
search_rollout.win_share = win_share  # type: ignore[attr-defined]  # its import, patched


class ValueNetPlayer(search.SearchPlayer):
    name = "search, value network, horizon 4"
