"""Tuning variant: at the first main-phase decision of its turn, ``search`` (at the 1 s
clock's horizon, as :mod:`horizon4`) compares plans for the whole turn, not single
moves. A plan is a prefix of the seat's own moves whose outcome is the seat's to choose
(builds and bank trades: no dice, no hidden card decides them) followed by the default
policy for the rest of the turn; the empty prefix is the default itself. On one
determinized game, the prefixes are enumerated breadth first (a position reached twice
counted once) until :data:`NODES` are scored, each by the value network of
:mod:`bots.builtin.search_value_net` at the next turn start (no dice have been rolled
yet: one sample scores it). The best plan replaces the default only when better by
:data:`MARGIN` of the win share; its prefix is then played move by move, and the rest of
the turn is the ``search`` bot's as usual. More time would buy more plans, not less
noise.

Against :mod:`horizon4` on the same games (seeds 710000-710599, 24 samples): 324/600 =
54.0% against 347/600 (-3.8 points; a paired 600-game difference has a 95% interval of
about ±4.5), for ~1.1x the CPU. Not kept. The plans are only as good as the value that
ranks them, and that value misjudges spending: ``benchmarks/value_spending.py`` finds the
network preferring the turn ended at once to the default policy's in 16% of the turns
the policy begins with a city and 32% of those it begins by buying a card. Scored by a
network refitted with off-policy positions (``python -m bots.builtin.search_value_net_fit
--branches 2 --branch-weight 4 --out FILE``: held-out log-loss 1.036 against the landed
1.042; the policy's city preferred in 90.8% of those turns against 83.5%), the same games
gave 344/600 = 57.3%, level with :mod:`horizon4`: a value that judges spending better
helps plans (+3.3 points over the landed network), but not yet beyond the default's own.
"""

from __future__ import annotations

import math
import random
from collections import deque
from typing import Final

import bots.builtin.search as search
from bots.builtin.search_value_branches import play_on
from bots.builtin.search_value_net import win_share
from engine import Action, Game, Observation, Phase
from engine import actions as A
from engine.determinize import determinize

search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched

PREFIX_MOVES: Final = (A.BuildCity, A.BuildSettlement, A.BuildRoad, A.MaritimeTrade)
"""The moves a plan's prefix is made of."""
NODES: Final = 60
"""Plans scored per turn."""
DEPTH: Final = 4
"""Moves a prefix holds at most."""
MARGIN: Final = 0.01
"""Win share by which a plan must beat the default's."""


class TurnPlansPlayer(search.SearchPlayer):
    name = "search, turn plans"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.prefix: list[Action] = []
        self.planned_turn = -1

    def act(self, observation: Observation) -> Action:
        obs = observation
        mine = obs.phase is Phase.MAIN and obs.decider == obs.seat
        if mine and obs.turn != self.planned_turn:
            self.planned_turn = obs.turn
            self.prefix = self._best_prefix(obs)
        if mine and self.prefix and obs.turn == self.planned_turn:
            move = self.prefix.pop(0)
            if move in obs.legal_actions:
                return move
            self.prefix = []
        return super().act(obs)

    def _best_prefix(self, obs: Observation) -> list[Action]:
        me = obs.seat
        assert me is not None
        root = determinize(obs, self.rng)
        best: list[Action] = []
        default_value = best_value = self._score(root, me)
        seen = {_key(root, me)}
        queue: deque[tuple[Game, list[Action]]] = deque([(root, [])])
        scored = 1
        while queue and scored < NODES:
            game, prefix = queue.popleft()
            if len(prefix) >= DEPTH or game.is_over:
                continue
            for action in game.legal_actions():
                if not isinstance(action, PREFIX_MOVES) or scored >= NODES:
                    continue
                after = game.copy()
                after.apply_unchecked(action)
                key = _key(after, me)
                if key in seen:
                    continue
                seen.add(key)
                value = self._score(after, me)
                scored += 1
                if value > best_value:
                    best, best_value = [*prefix, action], value
                if after.state.phase is Phase.MAIN and after.decider == me:
                    queue.append((after, [*prefix, action]))
        return best if best_value > default_value + MARGIN else []

    def _score(self, game: Game, me: int) -> float:
        """``me``'s win share at the next turn start, the default policy ending this turn."""
        ended = play_on(game.copy(), [self.base] * game.state.n, turn_only=True)
        return win_share(ended.state)[me]


def _key(game: Game, me: int) -> tuple[object, ...]:
    s = game.state
    return (tuple(s.hands[me]), tuple(s.node_kind), tuple(s.edge_owner), s.phase)
