"""Per-layout static tables for the hot path, derived from the layout's networkx graph."""

from __future__ import annotations

from functools import cached_property, lru_cache

from engine.board.layouts import BoardLayout
from engine.board.topology import Topology, standard_topology
from engine.static_typing import TYPE_CHECKING
from engine.valueclass import value_class

if TYPE_CHECKING:
    import networkx as nx

GENERIC_HARBOR = 5
"""``node_harbor`` value of an intersection on a 3:1 harbor (2:1 harbors hold the resource)."""


@value_class(eq=False, slots=False)
class Board:
    """A laid-out board: the annotated graph plus flat tables. Shared by all game copies."""

    layout: BoardLayout
    topology: Topology
    hex_resource: tuple[int, ...]
    """Resource produced by each hex, -1 for the desert."""
    node_harbor: tuple[int, ...]
    """-1 (none), 0..4 (2:1 for that resource) or ``GENERIC_HARBOR`` (3:1)."""
    hexes_by_number: tuple[tuple[int, ...], ...]
    """Hexes carrying each dice sum 0..12."""
    yields_by_number: tuple[tuple[tuple[int, tuple[tuple[int, tuple[int, ...]], ...]], ...], ...]
    """For each dice sum 0..12: (resource, ((hex, its intersections), ...)) per resource
    produced, for the production step (the bank-shortage rule is per resource)."""
    desert: int

    # Aliases of the topology tables, kept here so the hot path does one attribute lookup.
    hex_nodes: tuple[tuple[int, ...], ...]
    node_hexes: tuple[tuple[int, ...], ...]
    node_neighbours: tuple[tuple[int, ...], ...]
    node_edges: tuple[tuple[int, ...], ...]
    edge_nodes: tuple[tuple[int, int], ...]

    @cached_property
    def graph(self) -> nx.Graph:
        """The topology graph annotated with this layout: ``terrain``/``number`` per hex in
        ``graph.graph["hexes"]``, ``harbor`` on harbor paths and their intersections."""
        graph = self.topology.graph.copy()
        graph.graph["hexes"] = [
            {"terrain": t.label, "number": n}
            for t, n in zip(self.layout.terrains, self.layout.numbers, strict=True)
        ]
        for edge, kind in zip(self.topology.harbor_edges, self.layout.harbors, strict=True):
            a, b = self.topology.edge_nodes[edge]
            value = GENERIC_HARBOR if kind is None else int(kind)
            graph.edges[a, b]["harbor"] = value
            graph.nodes[a]["harbor"] = graph.nodes[b]["harbor"] = value
        return graph

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
    """Build (once per layout) the tables of a laid-out board."""
    topo = standard_topology()
    node_harbor = [-1] * topo.num_nodes
    for edge, kind in zip(topo.harbor_edges, layout.harbors, strict=True):
        for node in topo.edge_nodes[edge]:
            node_harbor[node] = GENERIC_HARBOR if kind is None else int(kind)
    by_number: list[list[int]] = [[] for _ in range(13)]
    for h, number in enumerate(layout.numbers):
        if number:
            by_number[number].append(h)
    hex_resource = tuple(-1 if t.resource is None else int(t.resource) for t in layout.terrains)
    yields = []
    for hexes in by_number:
        grouped: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        for h in hexes:
            if hex_resource[h] >= 0:
                grouped.setdefault(hex_resource[h], []).append((h, topo.hex_nodes[h]))
        yields.append(tuple((r, tuple(group)) for r, group in sorted(grouped.items())))
    return Board(
        layout=layout,
        topology=topo,
        hex_resource=hex_resource,
        node_harbor=tuple(node_harbor),
        hexes_by_number=tuple(tuple(hs) for hs in by_number),
        yields_by_number=tuple(yields),
        desert=layout.desert,
        hex_nodes=topo.hex_nodes,
        node_hexes=topo.node_hexes,
        node_neighbours=topo.node_neighbours,
        node_edges=topo.node_edges,
        edge_nodes=topo.edge_nodes,
    )
