"""A bot that loves settlements and cities, and knows where the good land is.

It shows how to read the board: ``engine.board.tables.board_for(observation.board)``
gives the tables of the current map (which resource each hex produces, which hexes
touch each intersection, harbors...), and ``observation.robber`` tells where the robber
stands. Everything else (who owns what) is in the observation.
"""

from __future__ import annotations

from bots import Action, Observation, Player
from engine import Phase
from engine import actions as A
from engine.board.tables import board_for

# How many of the 36 dice outcomes roll each sum 0..12 (the "pips" on a number token).
PIPS = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)


class GreedySettler(Player):
    name = "greedy-settler"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:  # nothing to think about
            return legal[0]

        # Cities first, then settlements: each is worth a victory point.
        cities = [a for a in legal if isinstance(a, A.BuildCity)]
        if cities:
            return max(cities, key=lambda a: self.production(observation, a.node))
        settlements = [a for a in legal if isinstance(a, A.BuildSettlement)]
        if settlements:  # also used for the two free settlements of the set-up
            return max(settlements, key=lambda a: self.production(observation, a.node))

        # A road toward the best free corner. Roads are free (and compulsory) in the
        # set-up and after Road Building; in the main phase build one only half the
        # time, to keep brick and lumber for settlements.
        roads = [a for a in legal if isinstance(a, A.BuildRoad)]
        paying = observation.phase is Phase.MAIN
        if roads and (not paying or self.rng.random() < 0.5):
            return max(roads, key=lambda a: self.road_value(observation, a.edge))

        if A.ROLL in legal:
            return A.ROLL
        robber_moves = [a for a in legal if isinstance(a, A.MoveRobber)]
        if robber_moves:
            return self.place_robber(observation, robber_moves)
        # Cards pile up otherwise (and half are lost on a 7): swap at the bank.
        trades = [a for a in legal if isinstance(a, A.MaritimeTrade)]
        if trades:
            return self.rng.choice(trades)
        if A.END_TURN in legal:
            return A.END_TURN
        if A.REJECT in legal:  # this bot never trades with other players
            return A.REJECT
        return self.rng.choice(legal)

    @staticmethod
    def production(observation: Observation, node: int) -> int:
        """Pips of the producing hexes around an intersection (the desert makes nothing)."""
        board = board_for(observation.board)
        return sum(
            PIPS[observation.board.numbers[h]]
            for h in board.node_hexes[node]
            if board.hex_resource[h] >= 0
        )

    def road_value(self, observation: Observation, edge: int) -> int:
        """The best production at either end of a path, if nobody has built there."""
        board = board_for(observation.board)
        ends = board.edge_nodes[edge]
        free = [v for v in ends if observation.node_owner[v] == -1]
        return max((self.production(observation, v) for v in free), default=0)

    def place_robber(self, observation: Observation, moves: list[A.MoveRobber]) -> Action:
        """Never on a hex next to our own buildings; prefer a busy hex with a victim."""
        board = board_for(observation.board)
        me = observation.seat

        def score(move: A.MoveRobber) -> int:
            owners = [observation.node_owner[v] for v in board.hex_nodes[move.hex]]
            if me in owners:
                return -100
            busy = sum(1 for o in owners if o != -1)
            return busy * PIPS[observation.board.numbers[move.hex]] + (move.victim is not None)

        return max(moves, key=score)
