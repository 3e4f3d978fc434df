"""``search``: determinized Monte Carlo search over the ``heuristic`` policy's options,
thinking as long as its clock allows.

Close to winning (three points or fewer short), each decision of its turn first looks
for a line of its own builds, bank trades and card plays that wins this turn
(:mod:`bots.builtin.search_finish`) and plays its first move. Otherwise every decision
starts from the default policy's choice: the heuristic's rules with a
retuned goal (:mod:`bots.builtin.search_policy`). When building, discarding, choosing a
card's resources and moving the robber, that choice and its plausible alternatives
(:mod:`bots.builtin.search_candidates`) are each played on sampled games consistent with
what the seat saw (the opponents' resource cards followed through the public history,
:mod:`engine.hand_tracker`), all on the same sample and dice, by the default policy for every
seat, and scored by a value model fitted on self-play
(:mod:`bots.builtin.search_rollout`, :mod:`bots.builtin.search_value`); an alternative
replaces the default only when it is better by more than its noise. The search runs
until a share of the decision's CPU budget or of the game's wall clock is spent
(:mod:`bots.builtin.search_clock`): a longer clock buys more samples and, from 0.15 s of
thinking a decision, rollouts that look a round ahead. Set-up placements: each of the heuristic's
top options is followed by a heuristic playout of the rest of the set-up, scored by a
logistic model fitted on self-play (:mod:`bots.builtin.search_setup`). Domestic trade:
offers, counters and partners are chosen by sampling the opponents' hidden hands
(consistent with offers they turned down) and predicting their answers
(:mod:`bots.builtin.search_trade`).

With the opponents' resource cards followed through the public history
(:mod:`engine.hand_tracker`), against three ``heuristic`` bots (``benchmarks/strength.py``,
sandboxed, fresh seeds, no faults, no bank drawn on, two runs of 200 games at each clock,
one session): at 100 ms 133/200 = 66.5% [59.7-72.7] and 125/200 = 62.5% [55.6-68.9],
258/400 = 64.5% [59.7-69.0] (19-20 ms a decision on average, 1.6-1.7 s of CPU a game); at
1 s 146/200 = 73.0% [66.5-78.7] and 140/200 = 70.0% [63.3-75.9], 286/400 = 71.5%
[66.9-75.7] (153-160 ms a decision, 13.7-14.4 s of CPU a game): +7.0 points over 100 ms
(95% interval ±6.4). In-process (``benchmarks/search_variants/uniform_hands.py``) the
tracker alone was worth +7.3 points at the 1 s clock's horizon. The next session's whole
``make bench-strength`` run (fresh seeds again): 100 ms 136/200 = 68.0% [61.2-74.1], 1 s
126/200 = 63.0% [56.1-69.4], 1 s minus 100 ms -5.0 points [-14.2 to +4.3]; the three
runs pooled, 100 ms 394/600 = 65.7% and 1 s 412/600 = 68.7%, +3.0 [-2.3 to +8.3]: the
tracker lifted both clocks, and ten times the thinking is not yet clearly worth more.

With the look for a win this turn (:mod:`bots.builtin.search_finish`), against three
``heuristic`` bots (``benchmarks/strength.py``, sandboxed, fresh seeds, 100 ms a decision,
no faults, no bank drawn on): 118/200 = 59.0% [95% CI 52.1-65.6] and 115/200 = 57.5%
[50.6-64.1] on a quiet machine (16 ms a decision on average, 1.5-1.6 s of CPU a game);
99/200 = 49.5% [42.6-56.4] in a run beside other benchmarks, where the bot got 1.0 s of
CPU a game: 332/600 = 55.3% in all. Against catanatron's players at 100 ms (200 games
each, fresh seeds, no faults; the first pairing played before the look for a win, the
second partly): search 1-vs-3 AlphaBeta 139/200 = 69.5% [62.8-75.5], AlphaBeta 1-vs-3
search 3/200 = 1.5% [0.5-4.3]; search 1-vs-3 ValueFunction 143/200 = 71.5% [64.9-77.3],
ValueFunction 1-vs-3 search 5/200 = 2.5% [1.1-5.7].

Before it, measured against three ``heuristic`` bots (sandboxed, fresh
seeds, no faults, no bank drawn on), one run each as landed: 98/200 = 49.0% [95% CI
42.2-55.9] at 100 ms a decision (20 ms a decision on average, 1.6 s of CPU a game);
94/200 = 47.0% [40.2-53.9] at 1 s (167 ms on average, 14.6 s of CPU a game): ten times
the thinking buys nothing measurable yet (issue 22's goals: 55% and 65%). With the
domestic offer made every turn (:mod:`bots.builtin.search_policy`), at 100 ms: 107/200 =
53.5% [46.6-60.3] on fresh seeds, and 104/200 on seeds 7000-7199 against 97/200 before
(106/200 for the same change tried as a variant file). Later, on seeds 0-199 (what
``strength.py`` played by default until it took fresh seeds): 102/200 = 51.0%
[44.1-57.8] at 100 ms and 103/200 = 51.5% [44.6-58.3] at 1 s (148 ms a decision on
average, 14.2 s of CPU a game). Against catanatron's players through the bridge
(``benchmarks/strength_vs_catanatron.py``, 200 games each at 100 ms, fresh seeds, no
faults): search 1-vs-3 AlphaBeta 125/200 = 62.5% [55.6-68.9], AlphaBeta 1-vs-3 search
10/200 = 5.0% [2.7-9.0]; search 1-vs-3 ValueFunction 130/200 = 65.0% [58.2-71.3],
ValueFunction 1-vs-3 search 7/200 = 3.5% [1.7-7.0]. Earlier runs:
96/200 = 48.0% at 100 ms; 59/100 = 59.0% [49.2-68.1] at 1 s before
:func:`engine.determinize.redeal`; at 300 ms 38/100 ending rollouts at the turn, 20/40
looking a round ahead. Ablation at 100 ms, 200 games on each of seeds 91000+ and 92000+:
as landed 197/400 (49.3%); without mid-game rollouts (``SEARCHED`` empty) 210/400, so
they buy nothing measurable yet; without them and without the offers of
:mod:`bots.builtin.search_trade` 157/400; without them and without the fitted set-up
model 162/400: the offers and the set-up model carry the strength. Tried and not kept:
set-up settlements compared by rollouts on a share of the bank (194/400 against 197).
Then an offer made on any chance of acceptance (:func:`bots.builtin.search_trade.choose_offer`)
and a set-up model that weighs production paying for a build together
(:data:`bots.builtin.search_setup.SYNERGY`), each measured in-process first (+2.8 and
+2.6 points over 2,000 paired games): on the same two seed blocks 103 + 110 = 213/400
(53.3%) against 197/400, and 93/200 = 46.5% [39.7-53.4] on fresh seeds (one 200-game
run swings about ten points between seed blocks). Tried in-process and not kept: the
bot's own second settlement chosen by the model inside the set-up playouts (-0.5
points), offers of two cards for one (+0.1), ten set-up spots instead of twenty (+0.1),
a robber that prefers rich victims (+0.3), a road goal's effort 1.5 or 3.5 (-2.8,
+1.1), a development card's 0.5 or 2.5 (-1.2, -6.4); 32 trade samples instead of 8
(+1.2), and rollouts with 8 samples a candidate against none (+1.8 ± 5.6 over 400).
Also tried in-process and not kept: the set-up model refitted on search's own games
(``search_fit --games-of search``, 10,000 games; held-out log-loss 0.6477 against 0.6487)
+0.6 ± 2.2 points; never accepting an offer from the leader +0.6 ± 1.7; a settlement
before a city +0.0 (the rollouts compare both anyway); the three together with a road
effort of 3.5 +0.25 over 2,000 games.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Final

from bots.builtin.deadline import Deadline
from bots.builtin.heuristic import HeuristicPlayer
from bots.builtin.heuristic_board import board_info, spot_value
from bots.builtin.search_candidates import candidates
from bots.builtin.search_clock import Budget, think_budget
from bots.builtin.search_finish import PHASES as FINISHING
from bots.builtin.search_finish import winning_move
from bots.builtin.search_policy import SearchPlan, SearchPolicy
from bots.builtin.search_rollout import choose
from bots.builtin.search_setup import win_logits
from bots.builtin.search_trade import best_offer, best_response, pick_partner
from bots.player import Player
from engine import Action, Observation
from engine import actions as A
from engine.determinize import determinize
from engine.phases import Phase
from engine.types import Bag

FINISH_SHARE: Final = 0.3
"""Share of a decision's time the look for a win this turn may take (when close to it)."""
ROLLOUT_SHARE: Final = 0.8
"""Share of a main-phase decision's time given to rollouts (the rest: a domestic offer)."""
HORIZONS: Final = ((0.15, 0), (1.5, 4), (math.inf, 8))
"""Turns a rollout looks past the current one, by the seconds the decision may think:
short clocks compare positions at the end of the turn, longer ones play a round on (at
300 ms a decision, 20/40 wins against 14/40 ending at the turn, on the same seeds)."""
SEARCHED: Final = (Phase.MAIN, Phase.ROAD_BUILDING, Phase.DISCARD, Phase.MOVE_ROBBER)
"""Phases whose decisions are compared by rollouts (:mod:`bots.builtin.search_candidates`)."""
SETUP_OPTIONS: Final = 20
"""Set-up settlement spots compared (the heuristic's best by its own spot value)."""
SETUP_PRIOR: Final = 0.0
"""Log-odds margin an alternative set-up move needs over the heuristic's choice."""
TRADE_SAMPLES: Final = 8
"""Determinizations used to predict answers to our domestic offers."""
YIELDING: Final = (A.MaritimeTrade, A.ProposeTrade, A.EndTurn, A.BuyDevCard)
"""Heuristic main-phase choices that a good domestic offer should come before."""


class SearchPlayer(Player):
    name = "search"
    max_samples: int | None = None
    """Cap on determinizations per decision (None: as many as the budget allows); a cap
    with an ample clock makes decisions reproducible from the seed."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.base: HeuristicPlayer = SearchPolicy(self.rng)
        self.clock: Callable[[], float] = time.perf_counter
        """Wall-clock time, read against the budget (tests substitute a scripted clock)."""
        self.cpu_clock: Callable[[], float] = time.process_time
        """CPU time, read against the decision's CPU budget (tests script it too)."""
        self.pending: tuple[int, tuple[int, ...], A.ProposeTrade] | None = None
        """Our last offer (turn, everyone's card counts then, offer) until answered."""
        self.turned_down: list[tuple[int, tuple[int, ...], Bag, Bag]] = []

    def act(self, observation: Observation) -> Action:
        start, cpu_start = self.clock(), self.cpu_clock()
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        budget = think_budget(observation.clock)
        self.deadline = self._deadline(start, cpu_start, budget, 1.0)
        phase = observation.phase
        if phase is Phase.TRADE_CONFIRM:
            self.pending = None
            plan = SearchPlan(observation)
            confirms = [a for a in legal if isinstance(a, A.ConfirmTrade)]
            return pick_partner(observation, plan.goal[1], confirms)
        if phase in FINISHING:
            finish = self._deadline(start, cpu_start, budget, FINISH_SHARE)
            winning = winning_move(observation, self.rng, finish)
            if winning is not None:
                return winning
        default = self.base.act(observation)
        samples = TRADE_SAMPLES if self.max_samples is None else self.max_samples
        if phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD):
            return self._setup(observation, default)
        if phase is Phase.TRADE_RESPONSE and observation.offer is not None:
            plan = SearchPlan(observation)
            accept = default == A.ACCEPT
            return best_response(
                observation, plan.goal[1], accept, self.rng, self.deadline, samples
            )
        if phase in SEARCHED:
            options = candidates(observation, default, SearchPlan(observation))
            share = ROLLOUT_SHARE if phase is Phase.MAIN else 1.0
            until = self._deadline(start, cpu_start, budget, share)
            horizon = next(h for limit, h in HORIZONS if budget.cpu < limit)
            default, _ = choose(
                observation, options, self.base, self.rng, until, horizon, self.max_samples
            )
        if phase is Phase.MAIN and isinstance(default, YIELDING):
            plan = SearchPlan(observation)
            rejected = self._rejected(observation)
            goal = plan.goal[1]
            offer = best_offer(observation, goal, self.rng, self.deadline, samples, rejected)
            if offer is not None:
                self.pending = (observation.turn, observation.resource_counts, offer)
                return offer
        return default

    def _deadline(self, start: float, cpu_start: float, budget: Budget, share: float) -> Deadline:
        """Passed once ``share`` of either budget is spent."""
        cpu = Deadline(cpu_start + budget.cpu * share, self.cpu_clock)
        return Deadline(start + budget.wall * share, self.clock, cpu)

    def _rejected(self, obs: Observation) -> list[tuple[Bag, Bag]]:
        """Our offers that everyone turned down since the hands last changed."""
        if self.pending is not None:
            turn, counts, offer = self.pending
            self.pending = None
            if turn == obs.turn and counts == obs.resource_counts:
                self.turned_down.append((turn, counts, offer.give, offer.get))
        self.turned_down = [
            t for t in self.turned_down if t[0] == obs.turn and t[1] == obs.resource_counts
        ]
        return [(give, get) for _, _, give, get in self.turned_down]

    # --- set-up --------------------------------------------------------------------------

    def _setup(self, obs: Observation, default: Action) -> Action:
        """Play the rest of the set-up with the heuristic for each of the heuristic's top
        options and keep the one the fitted model likes best (the default on ties)."""
        me = obs.seat
        assert me is not None
        legal = list(obs.legal_actions)
        if obs.phase is Phase.SETUP_SETTLEMENT:
            info = board_info(obs.board)
            plan = SearchPlan(obs)
            legal.sort(key=lambda a: -spot_value(info, a.node, plan.prod))  # type: ignore[attr-defined]
            legal = legal[:SETUP_OPTIONS]
        if default in legal:
            legal.remove(default)
        legal.insert(0, default)
        sample = determinize(obs, self.rng)
        best, best_value = default, float("-inf")
        for i, action in enumerate(legal):
            if i and self.deadline.passed():
                break
            game = sample.copy()
            game.apply_unchecked(action)
            while game.state.phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD):
                seat = game.state.decider
                game.apply_unchecked(self.base.act(game.observe(seat)))
            logits = win_logits(game.state)
            value = logits[me] - math.log(sum(math.exp(x) for x in logits))
            if not i:
                value += SETUP_PRIOR
            if value > best_value:
                best, best_value = action, value
        return best
