"""Resource production on a dice roll, with the bank-shortage rule."""

from __future__ import annotations

from engine.state import GameState


def produce(s: GameState, total: int) -> None:
    """Pay out the production of ``total``.

    Settlements yield 1, cities 2; the robber's hex yields nothing. If the bank cannot
    cover everyone's yield of a resource, nobody receives it, unless only one player is
    owed it: that player gets what is left.
    """
    node_owner, node_kind, robber = s.node_owner, s.node_kind, s.robber
    bank, hands = s.bank, s.hands
    for r, hexes in s.board.yields_by_number[total]:
        owed: list[tuple[int, int]] = []
        need = 0
        for h, nodes in hexes:
            if h != robber:
                for node in nodes:
                    owner = node_owner[node]
                    if owner != -1:
                        amount = node_kind[node]
                        owed.append((owner, amount))
                        need += amount
        if not need:
            continue
        left = bank[r]
        if need > left:
            first = owed[0][0]
            if all(owner == first for owner, _ in owed):
                hands[first][r] += left  # a single player owed: gets what is left
                bank[r] = 0
            continue  # shortage affecting several players: nobody gets this resource
        bank[r] = left - need
        for owner, amount in owed:
            hands[owner][r] += amount
