"""Road networks: where a road may go, and the length of each player's longest road."""

from __future__ import annotations

from collections.abc import Iterable

from engine.state import GameState


def can_build_road_at(s: GameState, seat: int, edge: int) -> bool:
    """Empty path touching the seat's building, or its road at an intersection that no
    opponent has built on (an opponent's building cuts the network)."""
    if s.edge_owner[edge] != -1:
        return False
    node_owner, edge_owner, node_edges = s.node_owner, s.edge_owner, s.board.node_edges
    for node in s.board.edge_nodes[edge]:
        owner = node_owner[node]
        if owner == seat:
            return True
        if owner == -1:
            for other in node_edges[node]:
                if edge_owner[other] == seat:
                    return True
    return False


def road_built(s: GameState, seat: int, edge: int) -> None:
    """Update the buildable-path caches after ``seat`` built a road on ``edge``: the path
    is gone for everyone, and the seat's network now reaches the paths around it
    (unless an opponent's building stands at that end)."""
    for cache in s.buildable:
        cache.discard(edge)
    node_owner, edge_owner, node_edges = s.node_owner, s.edge_owner, s.board.node_edges
    mine = s.buildable[seat]
    for node in s.board.edge_nodes[edge]:
        owner = node_owner[node]
        if owner == -1 or owner == seat:
            for other in node_edges[node]:
                if edge_owner[other] == -1:
                    mine.add(other)


def refresh_buildable(s: GameState, nodes: Iterable[int]) -> None:
    """Recompute the cached buildable paths around ``nodes`` for every seat."""
    node_edges = s.board.node_edges
    edges = {e for node in nodes for e in node_edges[node]}
    for seat in range(s.n):
        cache = s.buildable[seat]
        for e in edges:
            if can_build_road_at(s, seat, e):
                cache.add(e)
            else:
                cache.discard(e)


def longest_road(s: GameState, seat: int) -> int:
    """Length of the seat's longest simple trail of roads (no path used twice). The trail
    may end at, but not pass through, an intersection holding an opponent's building."""
    edges = s.road_edges[seat]
    if len(edges) < 2:
        return len(edges)
    node_owner, edge_owner = s.node_owner, s.edge_owner
    node_edges, edge_nodes = s.board.node_edges, s.board.edge_nodes

    def extend(node: int, used: int) -> int:
        owner = node_owner[node]
        if owner != -1 and owner != seat and used:
            return 0
        best = 0
        for e in node_edges[node]:
            bit = 1 << e
            if edge_owner[e] == seat and not used & bit:
                a, b = edge_nodes[e]
                length = 1 + extend(b if a == node else a, used | bit)
                if length > best:
                    best = length
        return best

    best = 0
    for node in _trail_starts(s, seat):
        length = extend(node, 0)
        if length > best:
            best = length
            if best == len(edges):
                break
    return best


def _trail_starts(s: GameState, seat: int) -> list[int]:
    """Intersections where a longest trail can start: a maximal trail ends only where the
    seat's road degree is not 2, or at an opponent's building, or (closed loop) anywhere on
    a ring; so take those, plus one intersection of every ring with neither."""
    node_owner, edge_owner = s.node_owner, s.edge_owner
    node_edges, edge_nodes = s.board.node_edges, s.board.edge_nodes
    nodes = s.road_nodes[seat]
    starts = []
    for node in nodes:
        owner = node_owner[node]
        degree = 0
        for e in node_edges[node]:
            if edge_owner[e] == seat:
                degree += 1
        if degree != 2 or (owner != -1 and owner != seat):
            starts.append(node)
    # Every connected piece of the network must contain a start.
    reached: set[int] = set()
    frontier = list(starts)
    pending = sorted(nodes)
    while True:
        while frontier:
            node = frontier.pop()
            if node in reached:
                continue
            reached.add(node)
            for e in node_edges[node]:
                if edge_owner[e] == seat:
                    a, b = edge_nodes[e]
                    frontier.append(b if a == node else a)
        missing = next((n for n in pending if n not in reached), None)
        if missing is None:
            return starts
        starts.append(missing)
        frontier.append(missing)
