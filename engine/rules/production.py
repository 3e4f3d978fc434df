"""Resource production on a dice roll, with the bank-shortage rule."""

from __future__ import annotations

from engine.state import GameState


def produce(s: GameState, total: int) -> list[list[int]]:
    """Pay out the production of ``total`` and return what each seat received.

    Settlements yield 1, cities 2; the robber's hex yields nothing. If the bank cannot
    cover everyone's yield of a resource, nobody receives it, unless only one player is
    owed it: that player gets what is left.
    """
    board = s.board
    owed = [[0] * 5 for _ in range(s.n)]
    node_owner, node_kind, hex_resource = s.node_owner, s.node_kind, board.hex_resource
    for h in board.hexes_by_number[total]:
        if h == s.robber:
            continue
        resource = hex_resource[h]
        for node in board.hex_nodes[h]:
            owner = node_owner[node]
            if owner != -1:
                owed[owner][resource] += node_kind[node]
    bank, hands = s.bank, s.hands
    for r in range(5):
        demand = 0
        takers = 0
        for seat in range(s.n):
            if owed[seat][r]:
                demand += owed[seat][r]
                takers += 1
        if not demand:
            continue
        if demand > bank[r]:
            if takers > 1:
                for seat in range(s.n):
                    owed[seat][r] = 0
                continue
            for seat in range(s.n):
                if owed[seat][r]:
                    owed[seat][r] = bank[r]
        for seat in range(s.n):
            amount = owed[seat][r]
            if amount:
                hands[seat][r] += amount
                bank[r] -= amount
    return owed
