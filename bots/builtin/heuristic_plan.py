"""Decisions of the ``heuristic`` bot, computed from one observation (helpers only)."""

from __future__ import annotations

import random
from functools import cached_property
from typing import ClassVar, TypeVar

from bots.builtin.heuristic_board import (
    board_info,
    longest_from,
    my_production,
    ratios,
    road_plan,
    settle_spots,
    spot_value,
)
from engine import Action, Observation, Phase
from engine import actions as A
from engine.types import (
    BANK_PER_RESOURCE,
    COST_CITY,
    COST_DEV_CARD,
    COST_ROAD,
    COST_SETTLEMENT,
    Bag,
)

T = TypeVar("T", bound=Action)


def missing(cost: Bag, hand: Bag | list[int]) -> int:
    """Cards still lacking to pay ``cost`` from ``hand``."""
    return sum(max(0, c - h) for c, h in zip(cost, hand, strict=True))


def cheapest(options: list[tuple[float, str, Bag]]) -> tuple[str, Bag]:
    """The ``(kind, cost)`` of least effort (the first on ties), or ``("none", nothing)``."""
    if not options:
        return ("none", (0, 0, 0, 0, 0))
    _, kind, cost = min(options, key=lambda o: o[0])
    return kind, cost


class Plan:
    """One observation, analysed lazily; each method answers one kind of decision."""

    road_effort: ClassVar[float] = 0.5
    """Extra effort of a road goal (no settlement spot open yet), in cards."""
    dev_effort: ClassVar[float] = 1.5
    """Extra effort of a development card goal, in cards."""
    offer_skip: ClassVar[float] = 0.6
    """Chance of letting a turn's domestic offer pass (some variety in the landmark)."""

    def __init__(self, obs: Observation) -> None:
        assert obs.seat is not None and obs.hand is not None and obs.dev_cards is not None
        self.obs = obs
        self.me: int = obs.seat
        self.hand: Bag = obs.hand
        self.info = board_info(obs.board)
        self.board = self.info.board

    def of_type(self, cls: type[T]) -> list[T]:
        return [a for a in self.obs.legal_actions if isinstance(a, cls)]

    @cached_property
    def prod(self) -> list[int]:
        return my_production(self.info, self.obs, self.me)

    @cached_property
    def ratios(self) -> list[int]:
        return ratios(self.info, self.obs, self.me)

    @cached_property
    def roads(self) -> dict[int, float]:
        """Value of each empty path by the spot it leads toward."""
        obs = self.obs
        if obs.phase is Phase.SETUP_ROAD:
            start = {obs.setup_node}
            return road_plan(obs, self.info, self.me, self.prod, max_dist=3, start=start)
        return road_plan(obs, self.info, self.me, self.prod)

    @cached_property
    def goal_options(self) -> list[tuple[float, str, Bag]]:
        """What the seat could save for now: ``(effort, kind, cost)``, cities first."""
        obs, me = self.obs, self.me
        options: list[tuple[float, str, Bag]] = []
        if obs.cities_left[me] and any(
            o == me and k == 1 for o, k in zip(obs.node_owner, obs.node_kind, strict=True)
        ):
            options.append((self._effort(COST_CITY), "city", COST_CITY))
        if obs.settlements_left[me]:
            if settle_spots(obs, self.board, me):
                options.append((self._effort(COST_SETTLEMENT), "settlement", COST_SETTLEMENT))
            elif obs.roads_left[me] and self.roads:
                options.append((self._effort(COST_ROAD) + self.road_effort, "road", COST_ROAD))
        if obs.deck_size:
            options.append((self._effort(COST_DEV_CARD) + self.dev_effort, "dev", COST_DEV_CARD))
        return options

    @cached_property
    def goal(self) -> tuple[str, Bag]:
        """What to save for: ``(kind, cost)``, the cheapest to complete, cities first."""
        return cheapest(self.goal_options)

    def _effort(self, cost: Bag) -> float:
        """Missing cards, a resource not produced at all counting double."""
        return sum(
            max(0, c - h) * (1.0 if self.prod[r] else 2.0)
            for r, (c, h) in enumerate(zip(cost, self.hand, strict=True))
        )

    # --- building ------------------------------------------------------------------------

    def city_value(self, v: int) -> float:
        return sum(p * self.info.scarcity[r] for r, p in enumerate(self.info.node_prod[v]))

    def best_settlement(self, options: list[A.BuildSettlement]) -> Action | None:
        if not options:
            return None
        robber = -1 if self.obs.phase is Phase.SETUP_SETTLEMENT else self.obs.robber
        return max(options, key=lambda a: spot_value(self.info, a.node, self.prod, robber))

    def best_road(self, options: list[A.BuildRoad]) -> Action | None:
        if not options:
            return None
        contest = self._road_contest()
        mine = [e for e, o in enumerate(self.obs.edge_owner) if o == self.me]
        base = self.obs.road_lengths[self.me]

        def score(a: A.BuildRoad) -> float:
            value = self.roads.get(a.edge, 0.0)
            if contest:
                gain = longest_from([*mine, a.edge], self.obs, self.board, self.me) - base
                value += 4.0 * max(0, gain)
            return value

        return max(options, key=score)

    def _road_contest(self) -> bool:
        """Is Longest Road worth roads now (close to taking it, or to losing it)?"""
        obs, me = self.obs, self.me
        if not obs.roads_left[me] or obs.phase is Phase.SETUP_ROAD:
            return False
        mine = obs.road_lengths[me]
        best_other = max(x for p, x in enumerate(obs.road_lengths) if p != me)
        if obs.longest_road == me:
            return best_other >= mine - 1
        return mine + 2 >= max(5, best_other + 1)

    def extra_road(self, cost: Bag) -> Action | None:
        """A road beyond the goal, when brick and lumber are spare and it is useful."""
        hand = self.hand
        if hand[0] <= cost[0] or hand[1] <= cost[1]:
            return None
        options = self.of_type(A.BuildRoad)
        if not options:
            return None
        useful = [a for a in options if self.roads.get(a.edge, 0.0) > 6.0]
        if self._road_contest():
            return self.best_road(options)
        return self.best_road(useful)

    # --- development cards ---------------------------------------------------------------

    def _robber_hurts_me(self) -> bool:
        hex_ = self.obs.robber
        return self.info.hex_pips[hex_] > 0 and any(
            self.obs.node_owner[v] == self.me for v in self.board.hex_nodes[hex_]
        )

    def _army_gain(self) -> bool:
        obs, me = self.obs, self.me
        mine = obs.knights[me] + 1
        others = max(k for p, k in enumerate(obs.knights) if p != me)
        return obs.largest_army != me and mine >= 3 and mine > others

    def knight_now(self) -> Action | None:
        """Play a knight before rolling when the robber blocks us or it wins the army."""
        if A.KNIGHT in self.obs.legal_actions and (self._robber_hurts_me() or self._army_gain()):
            return A.KNIGHT
        return None

    def dev_play(self) -> Action | None:
        """A development card worth playing now in the main phase."""
        legal = self.obs.legal_actions
        if A.KNIGHT in legal:
            return A.KNIGHT
        monopolies = self.of_type(A.PlayMonopoly)
        if monopolies:
            card = self._monopoly(monopolies)
            if card is not None:
                return card
        plenty = self.of_type(A.PlayYearOfPlenty)
        if plenty:
            return max(plenty, key=self.plenty_value)
        if A.ROAD_BUILDING in legal and (self.roads or self._road_contest()):
            return A.ROAD_BUILDING
        return None

    def _monopoly(self, options: list[A.PlayMonopoly]) -> Action | None:
        obs, cost = self.obs, self.goal[1]
        held = [BANK_PER_RESOURCE - obs.bank[r] - self.hand[r] for r in range(5)]

        def worth(a: A.PlayMonopoly) -> float:
            r = a.resource
            need = 1.5 if cost[r] > self.hand[r] else 1.0
            return held[r] * need * (1.4 if self.ratios[r] == 2 else 1.0)

        best = max(options, key=worth)
        return best if held[best.resource] >= 4 else None

    def plenty_value(self, a: A.PlayYearOfPlenty) -> float:
        hand = list(self.hand)
        hand[a.first] += 1
        hand[a.second] += 1
        return -(
            10 * missing(self.goal[1], hand)
            + 2 * missing(COST_CITY, hand)
            + 2 * missing(COST_SETTLEMENT, hand)
        )

    # --- trading -------------------------------------------------------------------------

    def bank_trade_toward(self, cost: Bag) -> Action | None:
        """A maritime trade, if spare cards can complete ``cost`` this way."""
        hand, bank, ratio = self.hand, self.obs.bank, self.ratios
        lack = [max(0, c - h) for c, h in zip(cost, hand, strict=True)]
        spare = [max(0, h - c) for c, h in zip(cost, hand, strict=True)]
        if not any(lack) or sum(lack) > sum(s // q for s, q in zip(spare, ratio, strict=True)):
            return None
        wanted = [r for r in range(5) if lack[r] and bank[r]]
        givers = [g for g in range(5) if spare[g] >= ratio[g]]
        if not wanted or not givers:
            return None
        give = max(givers, key=lambda g: (spare[g] - ratio[g], -ratio[g]))
        trade = A.MARITIME[give][max(wanted, key=lambda r: lack[r])]
        return trade if trade in self.obs.legal_actions else None

    def dump_trade(self, cost: Bag) -> Action | None:
        """With too many cards to risk a 7: swap spare cards for ones we use."""
        trades = self.of_type(A.MaritimeTrade)
        spare = [h - c for c, h in zip(cost, self.hand, strict=True)]
        ok = [t for t in trades if spare[t.give] >= self.ratios[t.give]]
        if not ok:
            return None
        target = [c + d for c, d in zip(COST_CITY, COST_SETTLEMENT, strict=True)]

        def worth(t: A.MaritimeTrade) -> float:
            return 3 * max(0, cost[t.get] - self.hand[t.get]) + target[t.get] - self.hand[t.get]

        return max(ok, key=worth)

    def domestic_offer(self, rng: random.Random) -> Action | None:
        """Offer one (or two) spare cards for the single card the goal lacks."""
        obs, hand = self.obs, self.hand
        if not any(isinstance(a, A.ProposeTrade) for a in obs.legal_actions):
            return None
        cost = self.goal[1]
        lack = [max(0, c - h) for c, h in zip(cost, hand, strict=True)]
        spare = [max(0, h - c) for c, h in zip(cost, hand, strict=True)]
        if sum(lack) != 1 or not any(spare) or obs.offers_made >= 2:
            return None
        if rng.random() < self.offer_skip:
            return None
        want = lack.index(1)
        give = max(range(5), key=lambda r: spare[r])
        if obs.offers_made and spare[give] < 2:
            return None
        give_bag = [0] * 5
        give_bag[give] = 2 if obs.offers_made else 1
        get_bag = [0] * 5
        get_bag[want] = 1
        return A.ProposeTrade(tuple(give_bag), tuple(get_bag))

    def _near_win(self, seat: int) -> bool:
        return self.obs.visible_points[seat] >= self.obs.config.vp_to_win - 2

    def accept_offer(self) -> bool:
        """Accept a domestic offer if it brings the goal closer and helps no near-winner."""
        obs = self.obs
        if obs.offer is None or A.ACCEPT not in obs.legal_actions or self._near_win(obs.current):
            return False
        theirs, wanted = obs.offer
        after = [h + t - w for h, t, w in zip(self.hand, theirs, wanted, strict=True)]
        cost = self.goal[1]
        return missing(cost, after) < missing(cost, self.hand) and sum(wanted) <= sum(theirs) + 1

    def confirm(self) -> Action:
        """Complete the trade with the weakest accepting seat that is not near winning."""
        obs = self.obs
        cost = self.goal[1]
        best: tuple[int, int] | None = None
        for a in self.of_type(A.ConfirmTrade):
            answer = obs.responses[a.seat]
            if self._near_win(a.seat):
                continue
            if isinstance(answer, tuple):  # a counter: we receive answer[0], give answer[1]
                after = [h + g - w for h, g, w in zip(self.hand, *answer, strict=True)]
                if missing(cost, after) >= missing(cost, self.hand):
                    continue
            key = (obs.visible_points[a.seat], a.seat)
            if best is None or key < best:
                best = key
        return A.CONFIRMS[best[1]] if best is not None else A.CANCEL

    # --- 7s and the robber ---------------------------------------------------------------

    def discard(self) -> Action:
        """Drop the card the next build needs least (most spare, most produced)."""
        cost = self.goal[1]
        options = self.of_type(A.Discard)
        backup = [c + d for c, d in zip(COST_CITY, COST_SETTLEMENT, strict=True)]

        def spare(a: A.Discard) -> tuple[int, int, int]:
            r = a.resource
            return (self.hand[r] - cost[r], self.hand[r] - backup[r], self.prod[r])

        return max(options, key=spare)

    def robber(self) -> Action:
        """Block the hex hurting the leaders most (never our own) and rob the leader."""
        obs, me, info = self.obs, self.me, self.info
        points = obs.visible_points
        top = max(points[p] for p in range(len(points)) if p != me)

        def threat(p: int) -> float:
            return 1.0 + 0.25 * points[p] + (0.75 if points[p] == top else 0.0)

        def score(a: A.MoveRobber) -> float:
            pips = info.hex_pips[a.hex]
            value = 0.0
            for v in self.board.hex_nodes[a.hex]:
                owner = obs.node_owner[v]
                if owner == me:
                    value -= 100.0
                elif owner >= 0:
                    value += pips * obs.node_kind[v] * threat(owner)
            if a.victim is not None:
                value += 3.0 * threat(a.victim) + 0.3 * min(obs.resource_counts[a.victim], 8)
            return value

        return max(self.of_type(A.MoveRobber), key=score)
