"""Board analysis for the ``heuristic`` bot: production, spots, roads (observation only).

Helpers only (no Player subclass here): everything is computed from an
:class:`~engine.Observation` plus the static per-layout tables of ``engine.board``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine import Observation
from engine.board.layouts import BoardLayout
from engine.board.tables import GENERIC_HARBOR, Board, board_for

PIPS: tuple[int, ...] = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)
"""Ways to roll each sum 0..12 with two dice (out of 36)."""


@dataclass(frozen=True)
class BoardInfo:
    """Static facts about one layout."""

    board: Board
    hex_pips: tuple[int, ...]
    node_prod: tuple[tuple[int, ...], ...]
    """Pips per resource for each intersection."""
    scarcity: tuple[float, ...]
    """Per resource: > 1 when the board produces it less than average."""


@lru_cache(maxsize=64)
def board_info(layout: BoardLayout) -> BoardInfo:
    board = board_for(layout)
    hex_pips = tuple(PIPS[n] for n in layout.numbers)
    node_prod: list[tuple[int, ...]] = []
    for hexes in board.node_hexes:
        prod = [0] * 5
        for h in hexes:
            r = board.hex_resource[h]
            if r >= 0:
                prod[r] += hex_pips[h]
        node_prod.append(tuple(prod))
    totals = [
        sum(hex_pips[h] for h in range(board.num_hexes) if board.hex_resource[h] == r)
        for r in range(5)
    ]
    mean = sum(totals) / 5
    scarcity = tuple(min(1.5, max(0.75, (mean / t) ** 0.5 if t else 1.5)) for t in totals)
    return BoardInfo(board, hex_pips, tuple(node_prod), scarcity)


def my_production(info: BoardInfo, obs: Observation, seat: int) -> list[int]:
    """Pips per resource of ``seat``'s buildings (cities count double)."""
    prod = [0] * 5
    for v, owner in enumerate(obs.node_owner):
        if owner == seat:
            for r, p in enumerate(info.node_prod[v]):
                prod[r] += p * obs.node_kind[v]
    return prod


def ratios(info: BoardInfo, obs: Observation, seat: int) -> list[int]:
    """Maritime trade ratio per resource for ``seat``."""
    out = [4] * 5
    for v, owner in enumerate(obs.node_owner):
        harbor = info.board.node_harbor[v]
        if owner == seat and harbor != -1:
            if harbor == GENERIC_HARBOR:
                out = [min(x, 3) for x in out]
            else:
                out[harbor] = 2
    return out


def spot_value(info: BoardInfo, v: int, prod: list[int], robber: int = -1) -> float:
    """How good intersection ``v`` is for a settlement, given current production ``prod``."""
    board = info.board
    gain = [0] * 5
    for h in board.node_hexes[v]:
        r = board.hex_resource[h]
        if r >= 0:
            gain[r] += info.hex_pips[h] // (2 if h == robber else 1)
    value = 0.0
    for r in range(5):
        if gain[r]:
            lack = 1.35 if prod[r] == 0 else (1.1 if prod[r] < 4 else 1.0)
            value += gain[r] * info.scarcity[r] * lack
    kinds = sum(1 for r in range(5) if gain[r])
    value += 0.8 * kinds + 0.6 * sum(1 for r in range(5) if gain[r] and not prod[r])
    harbor = board.node_harbor[v]
    if harbor == GENERIC_HARBOR:
        value += 1.0
    elif harbor >= 0 and prod[harbor] + gain[harbor] >= 4:
        value += 1.0 + 0.35 * (prod[harbor] + gain[harbor])
    return value


def is_open(obs: Observation, board: Board, v: int) -> bool:
    """Empty and not next to any building (the distance rule)."""
    owner = obs.node_owner
    return owner[v] == -1 and all(owner[u] == -1 for u in board.node_neighbours[v])


def network_nodes(obs: Observation, board: Board, seat: int) -> set[int]:
    """Intersections a road of ``seat`` may start from (its buildings and road ends)."""
    nodes = {v for v, o in enumerate(obs.node_owner) if o == seat}
    for e, o in enumerate(obs.edge_owner):
        if o == seat:
            for v in board.edge_nodes[e]:
                if obs.node_owner[v] in (-1, seat):
                    nodes.add(v)
    return nodes


def settle_spots(obs: Observation, board: Board, seat: int) -> list[int]:
    """Open intersections touching ``seat``'s roads (where it may settle now)."""
    spots: set[int] = set()
    for e, o in enumerate(obs.edge_owner):
        if o == seat:
            spots.update(v for v in board.edge_nodes[e] if is_open(obs, board, v))
    return sorted(spots)


def road_plan(
    obs: Observation,
    info: BoardInfo,
    seat: int,
    prod: list[int],
    max_dist: int = 3,
    start: set[int] | None = None,
) -> dict[int, float]:
    """Value of building each empty path, by the best open spot it leads toward.

    A breadth-first search from the seat's network over empty paths (not through an
    opponent's building) finds open spots within ``max_dist`` roads; each first path of a
    shortest route gets the spot's value discounted by the distance.
    """
    board = info.board
    if start is None:
        start = network_nodes(obs, board, seat)
    first: dict[int, int | None] = dict.fromkeys(start)
    dist = dict.fromkeys(start, 0)
    queue = deque(start)
    scores: dict[int, float] = {}
    while queue:
        v = queue.popleft()
        d = dist[v]
        if d >= max_dist:
            continue
        if d and obs.node_owner[v] not in (-1, seat):
            continue
        for e in board.node_edges[v]:
            if obs.edge_owner[e] != -1:
                continue
            a, b = board.edge_nodes[e]
            u = b if a == v else a
            if u in dist:
                continue
            dist[u] = d + 1
            first[u] = e if first[v] is None else first[v]
            queue.append(u)
            if is_open(obs, board, u):
                edge = first[u]
                assert edge is not None
                value = spot_value(info, u, prod, obs.robber) * (0.75 ** (d))
                scores[edge] = max(scores.get(edge, 0.0), value)
    return scores


def longest_from(edges: Iterable[int], obs: Observation, board: Board, seat: int) -> int:
    """Longest trail over ``edges`` (``seat``'s roads); opponents' buildings cut it."""
    mine = set(edges)
    if len(mine) < 2:
        return len(mine)
    owner, node_edges, edge_nodes = obs.node_owner, board.node_edges, board.edge_nodes

    def extend(node: int, used: frozenset[int]) -> int:
        if used and owner[node] not in (-1, seat):
            return 0
        best = 0
        for e in node_edges[node]:
            if e in mine and e not in used:
                a, b = edge_nodes[e]
                best = max(best, 1 + extend(b if a == node else a, used | {e}))
        return best

    ends = {v for e in mine for v in edge_nodes[e]}
    return max(extend(v, frozenset()) for v in ends)
