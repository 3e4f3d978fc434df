"""Determinized Monte Carlo over a few candidate actions (helpers only).

Each round samples one full game consistent with the seat's observation
(:func:`engine.determinize`, then :func:`engine.determinize.redeal`, a faster re-deal of
the hidden cards) and tries every candidate on a copy of it: the candidate,
then the default policy for every seat for ``horizon`` more turns, then the position's
value (:func:`bots.builtin.search_value.win_share`, 1 or 0 once the game is over). All
candidates of a round share the sample and its chance streams (common random numbers),
so their differences are measured on the same dice. A round that the deadline cuts
short is dropped. The default (first candidate) keeps its place unless another beats it
by more than its noise.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from bots.builtin.deadline import Deadline
from bots.builtin.search_value import win_share
from bots.player import Player
from engine import Action, Game, Observation
from engine.determinize import determinize, redeal
from engine.phases import Phase

MAX_STEPS: Final = 400
"""Steps a rollout plays at most (a guard; turns end it long before)."""
CHECK_EVERY: Final = 4
"""Rollout steps between two readings of the clock."""
Z_SWITCH: Final = 1.0
"""Standard errors by which a candidate must beat the default to replace it."""


@dataclass
class Tally:
    """Paired differences of each candidate's value from the default's, per round."""

    diffs: list[list[float]] = field(default_factory=list)

    def add(self, values: Sequence[float]) -> None:
        if not self.diffs:
            self.diffs = [[] for _ in values]
        base = values[0]
        for i, v in enumerate(values):
            self.diffs[i].append(v - base)

    @property
    def rounds(self) -> int:
        return len(self.diffs[0]) if self.diffs else 0

    def best(self) -> int:
        """The candidate to play: the default unless another is clearly better."""
        best, best_score = 0, 0.0
        for i, d in enumerate(self.diffs):
            if i == 0 or len(d) < 2:
                continue
            mean = sum(d) / len(d)
            var = sum((x - mean) ** 2 for x in d) / (len(d) - 1)
            score = mean - Z_SWITCH * math.sqrt(var / len(d))
            if score > best_score:
                best, best_score = i, score
        return best


def rollout(
    game: Game,
    policy: Player,
    me: int,
    horizon: int,
    deadline: Deadline,
    own: Player | None = None,
) -> float | None:
    """Play ``game`` on with ``policy`` for every seat (``own``, where given, for ``me``)
    until ``horizon`` turns after the current one have started (0: until the current turn
    ends); ``me``'s value, or None if the deadline passed first."""
    mine = policy if own is None else own
    s = game.state
    stop = s.turn + horizon + 1
    for step in range(MAX_STEPS):
        if s.phase is Phase.GAME_OVER or s.turn >= stop:
            break
        if step % CHECK_EVERY == CHECK_EVERY - 1 and deadline.passed():
            return None
        legal = game.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            decider = s.decider
            action = (mine if decider == me else policy).act(game.observe(decider))
        game.apply_unchecked(action)
    return win_share(s)[me]


def choose(
    obs: Observation,
    candidates: Sequence[Action],
    policy: Player,
    rng: random.Random,
    deadline: Deadline,
    horizon: int,
    max_rounds: int | None = None,
    owns: Sequence[Player | None] | None = None,
) -> tuple[Action, int]:
    """The candidate to play (``candidates[0]`` is the default) and the rounds run;
    ``owns[i]``, where given, plays the seat's own turns after candidate ``i``."""
    me = obs.seat
    assert me is not None
    if len(candidates) < 2:
        return candidates[0], 0
    tally = Tally()
    first: Game | None = None
    while max_rounds is None or tally.rounds < max_rounds:
        if deadline.passed():
            break
        if first is None:
            sample = first = determinize(obs, rng)
        else:
            sample = redeal(first, obs, rng)
        values: list[float] = []
        for i, action in enumerate(candidates):
            if deadline.passed():
                break
            game = sample.copy()
            game.apply_unchecked(action)
            own = None if owns is None else owns[i]
            value = rollout(game, policy, me, horizon, deadline, own)
            if value is None:
                break
            values.append(value)
        if len(values) < len(candidates):
            break
        tally.add(values)
    return candidates[tally.best()], tally.rounds
