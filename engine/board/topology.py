"""The board's topology as a networkx graph: intersections are nodes, paths are edges.

The graph is built once (cached) and is the single source of truth for adjacency; the
compact tuples on :class:`Topology` are derived from it for the hot path.

Numbering is stable and documented: hexes row by row from the top-left; intersections by
position (top to bottom, then left to right); paths by the position of their midpoint.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Final

import networkx as nx

from engine.board.coords import Axial, Point, corners, land_hexes

#: The 9 harbor sites of the standard frame, as (hex index, side index), clockwise from
#: the top-left. Sides are numbered 0..5 = NE, E, SE, SW, W, NW (see ``coords``).
HARBOR_SITES: Final[tuple[tuple[int, int], ...]] = (
    (0, 5),
    (1, 0),
    (6, 0),
    (11, 1),
    (15, 2),
    (17, 2),
    (16, 3),
    (12, 4),
    (3, 4),
)


@dataclass(frozen=True, eq=False)
class Topology:
    """Immutable board topology plus adjacency tables derived from :attr:`graph`."""

    graph: nx.Graph
    hex_cells: tuple[Axial, ...]
    hex_nodes: tuple[tuple[int, ...], ...]
    """Six corners of each hex, clockwise from the top corner."""
    hex_edges: tuple[tuple[int, ...], ...]
    """Six sides of each hex, clockwise from the NE side."""
    hex_neighbours: tuple[tuple[int, ...], ...]
    node_hexes: tuple[tuple[int, ...], ...]
    node_neighbours: tuple[tuple[int, ...], ...]
    node_edges: tuple[tuple[int, ...], ...]
    edge_nodes: tuple[tuple[int, int], ...]
    edge_neighbours: tuple[tuple[int, ...], ...]
    """Paths sharing an intersection with each path."""
    node_pos: tuple[Point, ...]
    coast: tuple[int, ...]
    """Coastal paths, clockwise from the top-left."""
    harbor_edges: tuple[int, ...]
    """The paths of the 9 harbor sites, in ``HARBOR_SITES`` order."""

    @property
    def num_hexes(self) -> int:
        return len(self.hex_cells)

    @property
    def num_nodes(self) -> int:
        return len(self.node_pos)

    @property
    def num_edges(self) -> int:
        return len(self.edge_nodes)

    def edge_between(self, a: int, b: int) -> int:
        """The id of the path joining intersections ``a`` and ``b``."""
        edge_id: int = self.graph.edges[a, b]["id"]
        return edge_id


@cache
def standard_topology() -> Topology:
    """The 19-hex base-game board: 54 intersections, 72 paths, 9 harbor sites."""
    cells = land_hexes()
    corner_points = [corners(c) for c in cells]
    points = sorted({p for cs in corner_points for p in cs}, key=lambda p: (p[1], p[0]))
    node_of = {p: i for i, p in enumerate(points)}

    side_pairs: set[tuple[int, int]] = set()
    for cs in corner_points:
        corner_ids = [node_of[p] for p in cs]
        for k in range(6):
            a, b = corner_ids[k], corner_ids[(k + 1) % 6]
            side_pairs.add((min(a, b), max(a, b)))

    def midpoint(pair: tuple[int, int]) -> tuple[int, int]:
        (ax, ay), (bx, by) = points[pair[0]], points[pair[1]]
        return (ay + by, ax + bx)

    pairs = sorted(side_pairs, key=midpoint)
    graph = nx.Graph()
    for i, p in enumerate(points):
        graph.add_node(i, pos=p, hexes=())
    for i, (a, b) in enumerate(pairs):
        graph.add_edge(a, b, id=i, hexes=())
    edge_of = {pair: i for i, pair in enumerate(pairs)}

    hex_nodes: list[tuple[int, ...]] = []
    hex_edges: list[tuple[int, ...]] = []
    for h, cs in enumerate(corner_points):
        ids = tuple(node_of[p] for p in cs)
        sides = tuple(
            edge_of[(min(ids[k], ids[(k + 1) % 6]), max(ids[k], ids[(k + 1) % 6]))]
            for k in range(6)
        )
        hex_nodes.append(ids)
        hex_edges.append(sides)
        for n in ids:
            graph.nodes[n]["hexes"] = (*graph.nodes[n]["hexes"], h)
        for k, e in enumerate(sides):
            a, b = pairs[e]
            graph.edges[a, b]["hexes"] = (*graph.edges[a, b]["hexes"], (h, k))

    return _derive_tables(graph, cells, hex_nodes, hex_edges)


def _derive_tables(
    graph: nx.Graph,
    cells: list[Axial],
    hex_nodes: list[tuple[int, ...]],
    hex_edges: list[tuple[int, ...]],
) -> Topology:
    n_nodes = graph.number_of_nodes()
    edge_nodes: list[tuple[int, int]] = [(0, 0)] * graph.number_of_edges()
    for a, b, data in graph.edges(data=True):
        edge_nodes[data["id"]] = (min(a, b), max(a, b))
    node_edges = tuple(
        tuple(sorted(graph.edges[n, m]["id"] for m in graph.neighbors(n))) for n in range(n_nodes)
    )
    edge_neighbours = tuple(
        tuple(sorted({f for n in pair for f in node_edges[n]} - {e}))
        for e, pair in enumerate(edge_nodes)
    )
    cell_index = {c: i for i, c in enumerate(cells)}
    hex_neighbours = tuple(
        tuple(
            sorted(
                cell_index[(q + dq, r + dr)]
                for dq, dr in ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
                if (q + dq, r + dr) in cell_index
            )
        )
        for (q, r) in cells
    )
    node_pos = tuple(graph.nodes[n]["pos"] for n in range(n_nodes))
    coastal = [e for e, (a, b) in enumerate(edge_nodes) if len(graph.edges[a, b]["hexes"]) == 1]

    def clockwise_angle(e: int) -> float:
        (ax, ay), (bx, by) = node_pos[edge_nodes[e][0]], node_pos[edge_nodes[e][1]]
        x, y = (ax + bx) * math.sqrt(3) / 2, (ay + by) / 2.0
        # Screen coordinates (y down): atan2 grows clockwise. Start at the top-left.
        return (math.atan2(y, x) - math.atan2(-9.0, -3.0)) % (2 * math.pi)

    coast = tuple(sorted(coastal, key=clockwise_angle))
    harbor_edges = tuple(hex_edges[h][side] for h, side in HARBOR_SITES)
    for e in harbor_edges:
        if e not in coastal:
            raise AssertionError(f"harbor site on inland path {e}")
    return Topology(
        graph=graph,
        hex_cells=tuple(cells),
        hex_nodes=tuple(hex_nodes),
        hex_edges=tuple(hex_edges),
        hex_neighbours=hex_neighbours,
        node_hexes=tuple(tuple(graph.nodes[n]["hexes"]) for n in range(n_nodes)),
        node_neighbours=tuple(tuple(sorted(graph.neighbors(n))) for n in range(n_nodes)),
        node_edges=node_edges,
        edge_nodes=tuple(edge_nodes),
        edge_neighbours=edge_neighbours,
        node_pos=node_pos,
        coast=coast,
        harbor_edges=harbor_edges,
    )
