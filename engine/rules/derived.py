"""Recompute every derived cache of a state from its primary facts (ownership lists).

Used when a state is built from outside rather than played move by move: determinized
states for search bots, and test positions.
"""

from __future__ import annotations

from engine.rules.roads import can_build_road_at, longest_road
from engine.rules.trade import claim_harbor
from engine.state import GameState


def rebuild_derived(s: GameState) -> None:
    """Rebuild distance-rule counts, road networks, buildable paths, maritime ratios and
    road lengths from ``node_owner``, ``node_kind`` and ``edge_owner``."""
    board = s.board
    s.public_view = None
    s.blocked = [0] * board.num_nodes
    for node, owner in enumerate(s.node_owner):
        if owner != -1:
            s.blocked[node] += 1
            for other in board.node_neighbours[node]:
                s.blocked[other] += 1
    s.road_edges = [[] for _ in range(s.n)]
    s.road_nodes = [set() for _ in range(s.n)]
    for edge, owner in enumerate(s.edge_owner):
        if owner != -1:
            s.road_edges[owner].append(edge)
            s.road_nodes[owner].update(board.edge_nodes[edge])
    s.buildable = [
        {e for e in range(board.num_edges) if can_build_road_at(s, seat, e)} for seat in range(s.n)
    ]
    s.ratios = [[4] * 5 for _ in range(s.n)]
    for node, owner in enumerate(s.node_owner):
        if owner != -1:
            claim_harbor(s, owner, node)
    s.road_len = [longest_road(s, seat) for seat in range(s.n)]
