"""A bot that thinks as long as its clock allows, and no longer.

Every observation carries ``observation.clock``: ``decision`` (CPU seconds for this
decision), ``bank`` (overage seconds for the whole game) and ``game`` (the wall-clock
seconds the seat has left for all its remaining decisions, sleeping included). A bot
that spends most of ``clock.decision`` on every decision runs out of ``clock.game``
before the game ends (a game asks a seat 100-300 decisions); this one gives each
decision at most half of ``clock.decision`` and at most a 250th of what ``clock.game``
holds beyond a reserve for answering the decisions still to come, so thinking stops before
the game's budget runs low.

It spends that time on random rollouts: each candidate action is tried on a game
sampled from what it knows (``engine.determinize``) and played on at random for a few
steps; the candidate with the best mean points wins. It stops early once every
candidate has ``ROLLOUTS`` samples.
"""

from __future__ import annotations

import time

from bots import Action, Observation, Player
from engine import Clock
from engine.determinize import determinize

DECISION_SHARE = 0.5
"""Of ``clock.decision``: the rest covers the host's round trip and a slow moment."""
DECISIONS_AHEAD = 250
"""``clock.game`` is spread over this many decisions still to come."""
RESERVE_PER_DECISION = 0.004
"""Seconds of ``clock.game`` kept for each of those decisions: answering costs a little
every time (the round trip, reading the observation), thinking or not."""
ROLLOUTS = 4
"""Samples per candidate action: enough, so most decisions end well before the clock."""
DEPTH = 12
"""Random steps played on after a candidate action."""
CANDIDATES = 8
UNTIMED = 0.05
"""Seconds to think where no clock is given (in-process games of your own tests)."""


def think_seconds(clock: Clock | None) -> float:
    """Wall-clock seconds this decision may take: a share of the decision's budget, and
    never more than an even share of what is left of the game's wall clock."""
    if clock is None:
        return UNTIMED
    seconds = DECISION_SHARE * clock.decision
    if clock.game is not None:
        spare = clock.game - RESERVE_PER_DECISION * DECISIONS_AHEAD
        seconds = min(seconds, max(0.0, spare) / DECISIONS_AHEAD)
    return seconds


class ClockBudget(Player):
    name = "clock-budget"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:  # nothing to think about
            return legal[0]
        deadline = time.monotonic() + think_seconds(observation.clock)
        candidates = self.rng.sample(legal, min(CANDIDATES, len(legal)))
        totals = [0.0] * len(candidates)
        for _ in range(ROLLOUTS):
            for i, action in enumerate(candidates):
                if time.monotonic() >= deadline:
                    return self.best(candidates, totals)
                totals[i] += self.rollout(observation, action)
        return self.best(candidates, totals)

    def rollout(self, observation: Observation, action: Action) -> float:
        """My points after ``action`` and ``DEPTH`` random steps of a sampled game."""
        seat = observation.seat
        assert seat is not None
        game = determinize(observation, self.rng)
        game.apply(action)
        for _ in range(DEPTH):
            if game.is_over:
                break
            game.apply(self.rng.choice(game.legal_actions()))
        return float(game.observe(seat, with_legal=False).points() or 0)

    def best(self, candidates: list[Action], totals: list[float]) -> Action:
        top = max(totals)
        return self.rng.choice([a for a, t in zip(candidates, totals, strict=True) if t == top])
