"""Tuning variant: ``search`` at horizon 4 (the 1 s clock's rollouts, as
``horizon4.py``) whose answers to domestic trades are compared by rollouts too.

The landed bot answers an offer (accept, reject or counter) and picks the partner for
its own offer by its gain toward its own goal alone (:mod:`bots.builtin.search_trade`):
what the trade gives the other side never counts. Here the rule's answer is the default
and the other answers (accept or reject; each accepting partner or cancel) are played
on the same sampled games (:func:`bots.builtin.search_rollout.choose`): a trade that
lets the proposer build this turn is weighed against what it brings us.

Seeds 720000-720299, 24 samples a decision (``benchmarks/paired_inprocess.py``, against
three heuristics): 169/300 = 56.3% against ``horizon4.py``'s 174/300 = 58.0% on the same
games (paired -1.7 points, 95% interval ±5.9). Not kept: like every lever before it
(``horizon4.py`` lists them), one noise-width or less.
"""

from __future__ import annotations

import math

import bots.builtin.search as search
from bots.builtin.search_clock import think_budget
from bots.builtin.search_rollout import choose
from engine import Action, Observation, Phase
from engine import actions as A

search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched


class SearchedAnswersPlayer(search.SearchPlayer):
    name = "search, horizon 4, trade answers searched"

    def act(self, observation: Observation) -> Action:
        start, cpu_start = self.clock(), self.cpu_clock()
        chosen = super().act(observation)
        phase = observation.phase
        answers: tuple[Action, ...]
        if phase is Phase.TRADE_RESPONSE and observation.offer is not None:
            answers = (A.ACCEPT, A.REJECT)
        elif phase is Phase.TRADE_CONFIRM:
            confirms = (a for a in observation.legal_actions if isinstance(a, A.ConfirmTrade))
            answers = (*confirms, A.CANCEL)
        else:
            return chosen
        legal = observation.legal_actions
        options = [chosen, *(a for a in answers if a in legal and a != chosen)]
        budget = think_budget(observation.clock)
        until = self._deadline(start, cpu_start, budget, 1.0)
        horizon = next(h for limit, h in search.HORIZONS if budget.cpu < limit)
        best, _ = choose(
            observation, options, self.base, self.rng, until, horizon, self.max_samples
        )
        return best
