"""Tuning variant: ``search`` with the 1 s clock's rollouts (four turns past the current
one, as ``horizon4.py``) in which the other seats play the ``heuristic`` bot's own rules
rather than the search bot's retuned default policy (:mod:`bots.builtin.search_policy`):
an opponent model that matches the landmark bots, which matters most when rollouts run
through the opponents' turns (the 1 s clock), hardly at all when they end with the
current turn (100 ms).

Against :mod:`horizon4` on the same games (seeds 710000-710599, 24 samples): 355/600 =
59.2% against 347/600 (+1.3 points; a paired 600-game difference has a 95% interval of
about ±4.5), for the same CPU: nothing measurable. Together with the value network of
``value_net.py`` (a scratch variant importing both): 362/600, as the network alone, so
the two small gains do not add up. Not kept.
"""

from __future__ import annotations

import math

import bots.builtin.search as search
import bots.builtin.search_rollout as search_rollout
from bots.builtin.deadline import Deadline
from bots.builtin.heuristic import HeuristicPlayer
from bots.player import Player
from engine import Game

search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched
_rollout = search_rollout.rollout


def _opponent(policy: Player) -> HeuristicPlayer:
    """The heuristic twin of a default policy, sharing its random stream."""
    twin = getattr(policy, "heuristic_twin", None)
    if twin is None:
        twin = HeuristicPlayer(policy.rng)
        policy.heuristic_twin = twin  # type: ignore[attr-defined]
    return twin


def rollout(
    game: Game,
    policy: Player,
    me: int,
    horizon: int,
    deadline: Deadline,
    own: Player | None = None,
) -> float | None:
    """:func:`search_rollout.rollout` with the heuristic's rules for the other seats."""
    return _rollout(game, _opponent(policy), me, horizon, deadline, policy if own is None else own)


search_rollout.rollout = rollout


class HeuristicOpponentsPlayer(search.SearchPlayer):
    name = "search, horizon 4, heuristic opponents in rollouts"
