"""Per-layout static tables for the hot path, derived from the layout's networkx graph."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import networkx as nx

from engine.board.layouts import BoardLayout
from engine.board.topology import Topology, standard_topology

GENERIC_HARBOR = 5
"""``node_harbor`` value of an intersection on a 3:1 harbor (2:1 harbors hold the resource)."""


@dataclass(frozen=True, eq=False)
class Board:
    """A laid-out board: the annotated graph plus flat tables. Shared by all game copies."""

    layout: BoardLayout
    topology: Topology
    graph: nx.Graph
    """The topology graph annotated with harbor kinds on edges and nodes."""
    hex_resource: tuple[int, ...]
    """Resource produced by each hex, -1 for the desert."""
    node_harbor: tuple[int, ...]
    """-1 (none), 0..4 (2:1 for that resource) or ``GENERIC_HARBOR`` (3:1)."""
    hexes_by_number: tuple[tuple[int, ...], ...]
    """Hexes carrying each dice sum 0..12."""
    desert: int

    # Aliases of the topology tables, kept here so the hot path does one attribute lookup.
    hex_nodes: tuple[tuple[int, ...], ...]
    node_hexes: tuple[tuple[int, ...], ...]
    node_neighbours: tuple[tuple[int, ...], ...]
    node_edges: tuple[tuple[int, ...], ...]
    edge_nodes: tuple[tuple[int, int], ...]

    @property
    def num_nodes(self) -> int:
        return len(self.node_edges)

    @property
    def num_edges(self) -> int:
        return len(self.edge_nodes)

    @property
    def num_hexes(self) -> int:
        return len(self.hex_nodes)


@lru_cache(maxsize=256)
def board_for(layout: BoardLayout) -> Board:
    """Build (once per layout) the annotated graph and the tables derived from it."""
    topo = standard_topology()
    graph = topo.graph.copy()
    node_harbor = [-1] * topo.num_nodes
    for edge, kind in zip(topo.harbor_edges, layout.harbors, strict=True):
        a, b = topo.edge_nodes[edge]
        value = GENERIC_HARBOR if kind is None else int(kind)
        graph.edges[a, b]["harbor"] = value
        for n in (a, b):
            graph.nodes[n]["harbor"] = value
    for n in graph.nodes:
        node_harbor[n] = graph.nodes[n].get("harbor", -1)
    by_number: list[list[int]] = [[] for _ in range(13)]
    for h, number in enumerate(layout.numbers):
        if number:
            by_number[number].append(h)
    hex_resource = tuple(-1 if t.resource is None else int(t.resource) for t in layout.terrains)
    return Board(
        layout=layout,
        topology=topo,
        graph=graph,
        hex_resource=hex_resource,
        node_harbor=tuple(node_harbor),
        hexes_by_number=tuple(tuple(hs) for hs in by_number),
        desert=layout.desert,
        hex_nodes=topo.hex_nodes,
        node_hexes=topo.node_hexes,
        node_neighbours=topo.node_neighbours,
        node_edges=topo.node_edges,
        edge_nodes=topo.edge_nodes,
    )
