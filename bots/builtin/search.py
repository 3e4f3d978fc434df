"""``search``: determinized Monte-Carlo search within the per-decision time budget.

Each iteration samples a full game consistent with the observation
(:func:`engine.determinize.determinize`), then scores every candidate root action on a
copy of that sample: apply it, finish our own turn with a fast rule policy, and read a
value function (points, production, expansion room, cards, the army/road races), relative
to the opponents. The same sample and dice serve all candidates (common random numbers);
the best average wins. Set-up placement uses a static evaluation instead of playouts.
"""

from __future__ import annotations

import time
from typing import Final

from bots.builtin.search_eval import (
    COSTS,
    BoardInfo,
    board_info,
    fast_action,
    utility,
)
from bots.player import Player
from engine import Action, Observation
from engine import actions as A
from engine.board.tables import Board, board_for
from engine.determinize import determinize
from engine.game import Game
from engine.phases import Phase

DEFAULT_BUDGET: Final = 0.1
"""Seconds per decision when the observation carries no clock."""
SAFETY: Final = 0.7
"""Share of the decision budget actually used (the rest absorbs timing noise)."""
MARGIN: Final = 0.003
"""Seconds kept back from every budget."""
TRADE_MARGIN: Final = 0.5
"""Utility gain a domestic trade must bring before we agree to it."""
PLAYOUT_STEPS: Final = 40
"""Cap on playout actions in one turn."""
HORIZON_TURNS = 0
"""Opponent turns played out (fast policy, sampled dice) after ours before scoring."""


class SearchPlayer(Player):
    name = "search"
    max_samples: int | None = None
    """Cap on determinizations per decision (None: as many as the budget allows); a cap
    with an ample clock makes decisions reproducible from the seed."""

    def act(self, observation: Observation) -> Action:
        start = time.perf_counter()
        legal = list(observation.legal_actions)
        if len(legal) == 1:
            return legal[0]
        clock = observation.clock
        budget = DEFAULT_BUDGET if clock is None else clock.decision
        deadline = start + max(0.0, budget * SAFETY - MARGIN)
        board = board_for(observation.board)
        info = board_info(board)
        phase = observation.phase
        if phase is Phase.SETUP_SETTLEMENT:
            return self._setup_settlement(observation, board, info, legal)
        if phase is Phase.SETUP_ROAD:
            return self._setup_road(observation, board, info, legal)
        if phase is Phase.TRADE_RESPONSE:
            return self._respond(observation, info, legal, deadline)
        if phase is Phase.TRADE_CONFIRM:
            return self._confirm(observation, info, legal, deadline)
        candidates = self._candidates(observation, info, legal)
        choice = candidates[0] if len(candidates) == 1 else None
        if choice is None:
            choice = self._search(observation, info, candidates, deadline)
        if choice is A.END_TURN:
            return self._proposal(observation, legal) or choice
        return choice

    # --- search ------------------------------------------------------------------------

    def _search(
        self, obs: Observation, info: BoardInfo, candidates: list[Action], deadline: float
    ) -> Action:
        me = obs.seat
        assert me is not None
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        clock = time.perf_counter
        playout = obs.current == me  # off-turn decisions (discards) are scored at once
        cap = self.max_samples
        samples = 0
        while clock() < deadline and (cap is None or samples < cap):
            samples += 1
            sample = determinize(obs, self.rng)
            for i, action in enumerate(candidates):
                if clock() >= deadline:
                    break
                game = sample.copy()
                game.apply_unchecked(action)
                if playout:
                    self._finish_turn(game, me, info, HORIZON_TURNS)
                totals[i] += utility(game.state, me, info)
                counts[i] += 1
        best, best_mean = candidates[0], float("-inf")
        for i, action in enumerate(candidates):
            if counts[i]:
                mean = totals[i] / counts[i]
                if mean > best_mean:
                    best, best_mean = action, mean
        return best

    @staticmethod
    def _finish_turn(game: Game, me: int, info: BoardInfo, extra: int = 0) -> None:
        """Play on with the fast policy until our turn is over, then ``extra`` more turns
        (each capped at :data:`PLAYOUT_STEPS` actions)."""
        s = game.state
        turn = s.turn
        last = turn + extra if s.current == me else turn + extra - 1
        steps = 0
        while s.phase is not Phase.GAME_OVER:
            if s.turn != turn:
                if s.turn > last:
                    return
                turn, steps = s.turn, 0
            elif steps >= PLAYOUT_STEPS:
                return
            game.apply_unchecked(fast_action(game, info))
            steps += 1

    def _exchange_gain(
        self,
        obs: Observation,
        info: BoardInfo,
        other: int,
        mine_gets: tuple[int, ...],
        mine_gives: tuple[int, ...],
        deadline: float,
    ) -> float:
        """Average utility change for us if we swap cards with ``other`` (a few samples;
        on our turn, both sides of the comparison finish the turn with the fast policy)."""
        me = obs.seat
        assert me is not None
        playout = obs.current == me
        gain, samples = 0.0, 0
        while samples < 4 and (samples == 0 or time.perf_counter() < deadline):
            base = determinize(obs, self.rng)
            if playout:  # compare from the main phase, the offer closed
                base.state.phase, base.state.offer, base.state.decider = Phase.MAIN, None, me
            swapped = base.copy()
            mine, theirs = swapped.state.hands[me], swapped.state.hands[other]
            for r in range(5):
                mine[r] = max(0, mine[r] + mine_gets[r] - mine_gives[r])
                theirs[r] = max(0, theirs[r] + mine_gives[r] - mine_gets[r])
            if playout:
                self._finish_turn(base, me, info)
                self._finish_turn(swapped, me, info)
            gain += utility(swapped.state, me, info) - utility(base.state, me, info)
            samples += 1
        return gain / samples

    def _respond(
        self, obs: Observation, info: BoardInfo, legal: list[Action], deadline: float
    ) -> Action:
        """Accept a domestic offer when the exchange (if confirmed) raises our utility."""
        if A.ACCEPT not in legal or obs.offer is None:
            return A.REJECT
        give, get = obs.offer  # from the proposer's side: it gives ``give``, gets ``get``
        gain = self._exchange_gain(obs, info, obs.current, give, get, deadline)
        return A.ACCEPT if gain > TRADE_MARGIN else A.REJECT

    def _confirm(
        self, obs: Observation, info: BoardInfo, legal: list[Action], deadline: float
    ) -> Action:
        """Complete our offer with the responder whose answer helps us most, or cancel."""
        assert obs.offer is not None
        best: Action = A.CANCEL
        best_gain = TRADE_MARGIN
        for a in legal:
            if not isinstance(a, A.ConfirmTrade):
                continue
            answer = obs.responses[a.seat]
            if answer == "accept":
                gets, gives = obs.offer[1], obs.offer[0]
            else:  # a counter: the responder gives answer[0] and receives answer[1]
                gets, gives = answer[0], answer[1]
            gain = self._exchange_gain(obs, info, a.seat, gets, gives, deadline)
            gain -= 0.2 * obs.visible_points[a.seat]  # helping a leader costs us
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    @staticmethod
    def _proposal(obs: Observation, legal: list[Action]) -> Action | None:
        """A one-for-one offer giving a spare card for the last card a build needs."""
        hand = obs.hand
        assert hand is not None
        if obs.offers_made >= 2:
            return None
        me = obs.seat
        assert me is not None
        board = board_for(obs.board)
        owner, kind = obs.node_owner, obs.node_kind
        spot = obs.settlements_left[me] > 0 and any(
            owner[v] == -1 and all(owner[u] == -1 for u in board.node_neighbours[v])
            for e, o in enumerate(obs.edge_owner)
            if o == me
            for v in board.edge_nodes[e]
        )
        town = obs.cities_left[me] > 0 and any(
            o == me and k == 1 for o, k in zip(owner, kind, strict=True)
        )
        targets = [
            c for c, ok in zip(COSTS[:3], (spot, town, obs.deck_size > 0), strict=True) if ok
        ]
        for cost in targets:
            short = [r for r in range(5) if hand[r] < cost[r]]
            if len(short) != 1 or cost[short[0]] - hand[short[0]] != 1:
                continue
            spare = [r for r in range(5) if hand[r] > cost[r]]
            if not spare:
                continue
            give = max(spare, key=lambda r: hand[r] - cost[r])
            offer = A.OFFERS_ONE_FOR_ONE[give][short[0]]
            if offer in legal:
                return offer
        return None

    # --- candidate actions ---------------------------------------------------------------

    def _candidates(self, obs: Observation, info: BoardInfo, legal: list[Action]) -> list[Action]:
        """Legal actions worth searching (equivalent or clearly bad ones dropped)."""
        phase = obs.phase
        if phase is Phase.MOVE_ROBBER:
            return self._robber_candidates(obs, info, legal)
        if phase is Phase.TRADE_RESPONSE:
            return legal
        out: list[Action] = []
        hand = obs.hand
        assert hand is not None
        roads: list[Action] = []
        crowded = sum(hand) > obs.config.discard_limit
        plenty = sorted(range(5), key=lambda r: -hand[r])[:2]
        for a in legal:
            if isinstance(a, A.ProposeTrade):
                continue
            if isinstance(a, A.MaritimeTrade):
                if self._trade_enables(obs, a) or (crowded and a.give in plenty):
                    out.append(a)
                continue
            if isinstance(a, A.BuildRoad):
                roads.append(a)
                continue
            out.append(a)
        if roads:
            out.extend(self._road_candidates(obs, info, roads))
        return out or legal

    @staticmethod
    def _trade_enables(obs: Observation, trade: A.MaritimeTrade) -> bool:
        """Whether a maritime trade makes a build affordable that was not before."""
        assert obs.hand is not None
        hand = list(obs.hand)
        before = [all(hand[r] >= c[r] for r in range(5)) for c in COSTS[:3]]
        ratio = 4
        for _ in range(3):  # the ratio is not in the observation: find what is affordable
            if hand[trade.give] >= ratio:
                break
            ratio -= 1
        hand[trade.give] -= ratio
        hand[trade.get] += 1
        after = [all(hand[r] >= c[r] for r in range(5)) for c in COSTS[:3]]
        return any(a and not b for a, b in zip(after, before, strict=True))

    @staticmethod
    def _road_candidates(obs: Observation, info: BoardInfo, roads: list[Action]) -> list[Action]:
        """At most a few roads: those leading toward the best open spots."""
        board = board_for(obs.board)
        owner = obs.node_owner
        values = info.node_value

        def open_spot(v: int) -> bool:
            return owner[v] == -1 and all(owner[u] == -1 for u in board.node_neighbours[v])

        def score(a: Action) -> float:
            assert isinstance(a, A.BuildRoad)
            best = 0.0
            for u in board.edge_nodes[a.edge]:
                if open_spot(u):
                    best = max(best, values[u])
                for w in board.node_neighbours[u]:
                    if open_spot(w):
                        best = max(best, 0.6 * values[w])
            return best

        ranked = sorted(roads, key=score, reverse=True)
        return ranked[:4]

    @staticmethod
    def _robber_candidates(obs: Observation, info: BoardInfo, legal: list[Action]) -> list[Action]:
        """Robber moves onto hexes that hurt an opponent more than us (a handful)."""
        board = board_for(obs.board)
        me = obs.seat
        owner, kind = obs.node_owner, obs.node_kind

        def score(a: Action) -> float:
            assert isinstance(a, A.MoveRobber)
            total = 0.0
            for v in board.hex_nodes[a.hex]:
                if owner[v] == me:
                    total -= 3 * kind[v] * info.hex_pips[a.hex]
                elif owner[v] >= 0:
                    total += (obs.visible_points[owner[v]] + 1) * kind[v] * info.hex_pips[a.hex]
            if a.victim is not None:
                total += 2 + obs.resource_counts[a.victim]
            return total

        ranked = sorted(legal, key=score, reverse=True)
        return ranked[:6]

    # --- set-up --------------------------------------------------------------------------

    @staticmethod
    def _setup_settlement(
        obs: Observation, board: Board, info: BoardInfo, legal: list[Action]
    ) -> Action:
        """Best spot by weighted pips, variety (with our first settlement), harbors and
        room to expand."""
        me = obs.seat
        owner = obs.node_owner
        have = [0.0] * 5
        for v, o in enumerate(owner):
            if o == me:
                for _, r, p in info.node_res[v]:
                    have[r] += p
        second = any(o == me for o in owner)

        def open_spot(v: int) -> bool:
            return owner[v] == -1 and all(owner[u] == -1 for u in board.node_neighbours[v])

        def score(a: Action) -> float:
            assert isinstance(a, A.BuildSettlement)
            v = a.node
            value = info.node_value[v]
            gain = [0.0] * 5
            for _, r, p in info.node_res[v]:
                gain[r] += p
            for r in range(5):
                if gain[r] and not have[r]:
                    value += 1.2 if second else 0.0
                if have[r] and gain[r]:
                    value -= 0.15 * min(have[r], gain[r])
            # Early game: brick and lumber matter for roads and settlements.
            value += 0.12 * (gain[0] + gain[1]) if not (have[0] and have[1]) else 0.0
            room = 0.0
            for u in board.node_neighbours[v]:
                for w in board.node_neighbours[u]:
                    if w != v and open_spot(w):
                        room = max(room, info.node_value[w])
            return value + 0.15 * room

        return max(legal, key=score)

    @staticmethod
    def _setup_road(obs: Observation, board: Board, info: BoardInfo, legal: list[Action]) -> Action:
        owner = obs.node_owner

        def open_spot(v: int) -> bool:
            return owner[v] == -1 and all(owner[u] == -1 for u in board.node_neighbours[v])

        def score(a: Action) -> float:
            assert isinstance(a, A.BuildRoad)
            best = 0.0
            for u in board.edge_nodes[a.edge]:
                if u == obs.setup_node:
                    continue
                for w in board.node_neighbours[u]:
                    if w != obs.setup_node and open_spot(w):
                        best = max(best, info.node_value[w])
                        for x in board.node_neighbours[w]:
                            if open_spot(x):
                                best = max(best, 0.5 * info.node_value[x] + 0.5 * best)
            return best

        return max(legal, key=score)
