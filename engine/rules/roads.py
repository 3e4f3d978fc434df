"""Road networks: where a road may go, and the length of each player's longest road."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from engine.state import GameState

Links = dict[int, list[tuple[int, int]]]
"""Each intersection's links along a seat's roads: (path bit, intersection across)."""


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


def longest_road(s: GameState, seat: int, through: int | None = None) -> int:
    """Length of the seat's longest simple trail of roads (no path used twice). The trail
    may end at, but not pass through, an intersection holding an opponent's building.

    With ``through`` (the path of a road just built), only trails that may use that road
    are searched: the seat's new length is the larger of its old one and this (a trail
    not using the new road was there before). Those are the trails of its piece of the
    network or, when the new road is a dead end (no other road of the seat at one of its
    ends), only the trails starting at that end."""
    edges = s.road_edges[seat]
    if len(edges) < 2:
        return len(edges)
    if through is not None:
        links = _links(s, edges)
        for end in s.board.edge_nodes[through]:
            if len(links[end]) == 1:
                return _longest_trail(s, seat, links, (end,), len(edges))
    roots = s.road_nodes[seat] if through is None else s.board.edge_nodes[through]
    links, starts, size = _network(s, seat, roots)
    return _longest_trail(s, seat, links, starts, size)


def _longest_trail(s: GameState, seat: int, links: Links, starts: Iterable[int], size: int) -> int:
    """The longest trail starting at one of ``starts``: a depth-first search of every
    trail, stopped early by a trail using all ``size`` paths."""
    node_owner = s.node_owner

    def extend(node: int, used: int) -> int:
        owner = node_owner[node]
        if owner != -1 and owner != seat and used:
            return 0
        best = 0
        for bit, other in links[node]:
            if not used & bit:
                length = 1 + extend(other, used | bit)
                if length > best:
                    best = length
        return best

    best = 0
    for node in starts:
        length = extend(node, 0)
        if length > best:
            best = length
            if best == size:
                break
    return best


def _links(s: GameState, edges: list[int]) -> Links:
    """The :data:`Links` of the roads on ``edges`` (one seat's)."""
    links: Links = defaultdict(list)
    edge_nodes = s.board.edge_nodes
    for e in edges:
        a, b = edge_nodes[e]
        bit = 1 << e
        links[a].append((bit, b))
        links[b].append((bit, a))
    return links


def _network(s: GameState, seat: int, roots: Iterable[int]) -> tuple[Links, list[int], int]:
    """The pieces of the seat's road network holding ``roots``: each intersection's links
    (path bit, intersection across), the intersections where a longest trail can start,
    and the number of paths. A maximal trail ends only where the seat's road degree is not
    2, or at an opponent's building, or (closed loop) anywhere on a ring; so take those,
    plus one intersection of every piece with neither (a ring)."""
    node_owner, edge_owner = s.node_owner, s.edge_owner
    node_edges, edge_nodes = s.board.node_edges, s.board.edge_nodes
    links: Links = {}
    starts: list[int] = []
    ends = 0
    for root in roots:
        if root in links:
            continue
        found = False
        frontier = [root]
        while frontier:
            node = frontier.pop()
            if node in links:
                continue
            mine = []
            for e in node_edges[node]:
                if edge_owner[e] == seat:
                    a, b = edge_nodes[e]
                    other = b if a == node else a
                    mine.append((1 << e, other))
                    frontier.append(other)
            links[node] = mine
            ends += len(mine)
            owner = node_owner[node]
            if len(mine) != 2 or (owner != -1 and owner != seat):
                starts.append(node)
                found = True
        if not found:
            starts.append(root)
    return links, starts, ends // 2
