from collections.abc import Callable
from typing import Any, TypeVar

from bots import Action, Observation, Player
from engine import Phase
from engine import actions as A
from engine.board.tables import board_for
from engine.types import COST_CITY, COST_SETTLEMENT

PIPS = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)  # how many of the 36 rolls make each sum
T = TypeVar("T", bound=Action)


class MyBot(Player):
    name = "my-bot"

    def act(self, observation: Observation) -> Action:
        obs, legal = observation, observation.legal_actions
        board, me = board_for(obs.board), obs.seat
        hand = obs.hand or (0, 0, 0, 0, 0)

        def best(kind: type[T], score: Callable[[T], Any] = lambda a: 0) -> T | None:
            """The legal action of this kind that scores highest (None if there is none)."""
            options = [a for a in legal if isinstance(a, kind)]
            return max(options, key=score) if options else None

        def pips(node: int) -> int:  # how much an intersection produces
            return sum(PIPS[obs.board.numbers[h]] for h in board.node_hexes[node])

        def road_value(road: A.BuildRoad) -> int:  # the best free corner a road reaches
            ends = [n for n in board.edge_nodes[road.edge] if obs.node_owner[n] == -1]
            return max(map(pips, ends), default=0)

        # 1. Points first: cities, then settlements on the most productive corners;
        #    development cards as soon as they may be played (a knight before rolling).
        knight = best(A.PlayKnight) if obs.phase is Phase.ROLL else None
        for choice in (
            best(A.BuildCity, lambda a: pips(a.node)),
            best(A.BuildSettlement, lambda a: pips(a.node)),
            knight,
            best(A.PlayRoadBuilding),
            best(A.PlayYearOfPlenty),
            best(A.PlayMonopoly),
        ):
            if choice is not None:
                return choice
        if A.ROLL in legal:
            return A.ROLL

        # 2. Save for the next building: swap a surplus at the bank (the legal trades use
        #    our best ratio) for a card we lack; a road only toward a good free corner.
        mine = [k for o, k in zip(obs.node_owner, obs.node_kind, strict=True) if o == me]
        goal = COST_CITY if 1 in mine and hand[3] + hand[4] >= 3 else COST_SETTLEMENT
        lack = [max(0, need - have) for need, have in zip(goal, hand, strict=True)]
        spare = [have - need for need, have in zip(goal, hand, strict=True)]
        trade = best(A.MaritimeTrade, lambda a: (lack[a.get], spare[a.give]))
        if trade is not None and lack[trade.get] and spare[trade.give] > 0:
            return trade
        road = best(A.BuildRoad, road_value)
        if road is not None and (obs.phase is not Phase.MAIN or road_value(road) >= 8):
            return road
        if A.BUY_DEV in legal and sum(hand) >= 6:
            return A.BUY_DEV

        # 3. The robber goes where it hurts the leader most, never on our own land; a
        #    discard throws away our biggest pile; offers from the others are refused.
        def robber_value(a: A.MoveRobber) -> tuple[bool, int, int]:
            ours = me in [obs.node_owner[n] for n in board.hex_nodes[a.hex]]
            victim = -1 if a.victim is None else obs.visible_points[a.victim]
            return (not ours, victim, PIPS[obs.board.numbers[a.hex]])

        for last in (
            best(A.MoveRobber, robber_value),
            best(A.Discard, lambda a: hand[a.resource]),
            A.REJECT if A.REJECT in legal else None,
            A.END_TURN if A.END_TURN in legal else None,
        ):
            if last is not None:
                return last
        return self.rng.choice(legal)
