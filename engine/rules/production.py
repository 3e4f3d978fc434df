"""Resource production on a dice roll, with the bank-shortage rule."""

from __future__ import annotations

from engine.state import GameState


def produce(s: GameState, total: int) -> dict[int, dict[int, int]]:
    """Pay out the production of ``total``; return what was paid, by resource and seat.

    Settlements yield 1, cities 2; the robber's hex yields nothing. If the bank cannot
    cover everyone's yield of a resource, nobody receives it, unless only one player is
    owed it: that player gets what is left.
    """
    board = s.board
    node_owner, node_kind, hex_resource, robber = (
        s.node_owner,
        s.node_kind,
        board.hex_resource,
        s.robber,
    )
    owed: dict[int, dict[int, int]] = {}
    for h in board.hexes_by_number[total]:
        if h == robber:
            continue
        per_seat: dict[int, int] | None = None
        for node in board.hex_nodes[h]:
            owner = node_owner[node]
            if owner != -1:
                if per_seat is None:
                    per_seat = owed.setdefault(hex_resource[h], {})
                per_seat[owner] = per_seat.get(owner, 0) + node_kind[node]
    if not owed:
        return owed
    bank, hands = s.bank, s.hands
    for r, per_seat in list(owed.items()):
        if sum(per_seat.values()) > bank[r]:
            if len(per_seat) > 1:
                del owed[r]  # shortage affecting several players: nobody gets this resource
                continue
            (seat,) = per_seat
            per_seat[seat] = bank[r]  # a single player owed: gets what is left
        for seat, amount in per_seat.items():
            hands[seat][r] += amount
            bank[r] -= amount
    return owed
