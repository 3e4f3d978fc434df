"""The board's topology as a networkx graph: intersections are nodes, paths are edges.

:func:`build_graph` is the single source of truth for adjacency: it lays the 19 hexes out
in axial coordinates and records, on each node and edge, its position and the hex corners
and sides it is. :func:`tables_from_graph` derives the compact tuples the hot path uses.
Because importing networkx costs a quarter of a second (too much for every bot process),
the derived tables are also checked in as ``standard_topology.json``; a test rebuilds them
from the graph and compares, and ``python -m engine.board`` rewrites the file.
:attr:`Topology.graph` is built on first use.

Numbering is stable and documented: hexes row by row from the top-left; intersections by
position (top to bottom, then left to right); paths by the position of their midpoint.
"""

from __future__ import annotations

import json
import math
import os
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, Final

from engine.board.coords import Axial, Point, corners, land_hexes
from engine.valueclass import field_names, value_class

if TYPE_CHECKING:
    from pathlib import Path

    import networkx as nx

    TABLES_FILE: Path

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
_TABLES_PATH: Final = os.path.join(os.path.dirname(__file__), "standard_topology.json")


def __getattr__(name: str) -> Any:
    """``TABLES_FILE``, the checked-in tables' ``Path``: made on demand, because importing
    pathlib costs every bot process ~4 ms at start-up."""
    if name == "TABLES_FILE":
        from pathlib import Path

        return Path(_TABLES_PATH)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@value_class(eq=False, slots=False)
class Topology:
    """Immutable board topology: adjacency tables derived from :attr:`graph`."""

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

    @cached_property
    def graph(self) -> nx.Graph:
        """The networkx graph these tables come from (built on first use)."""
        return build_graph()

    @cached_property
    def _edge_index(self) -> dict[tuple[int, int], int]:
        return {pair: e for e, pair in enumerate(self.edge_nodes)}

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
        """The id of the path joining intersections ``a`` and ``b`` (KeyError if none)."""
        return self._edge_index[(min(a, b), max(a, b))]

    def tables(self) -> dict[str, Any]:
        """The tables as plain JSON data."""
        return {name: _to_lists(getattr(self, name)) for name in field_names(self)}


def _to_lists(value: Any) -> Any:
    return [_to_lists(v) for v in value] if isinstance(value, tuple) else value


def _to_tuples(value: Any) -> Any:
    return tuple(_to_tuples(v) for v in value) if isinstance(value, list) else value


def build_graph() -> nx.Graph:
    """Lay out the 19 land hexes and build the intersection/path graph.

    Node attributes: ``pos`` (integer coordinates, see ``coords``) and ``corners`` (the
    ``(hex, corner)`` pairs it is). Edge attributes: ``id`` and ``sides`` (the
    ``(hex, side)`` pairs it is). ``graph.graph["hex_cells"]`` holds the axial cells.
    """
    import networkx as nx

    cells = land_hexes()
    corner_points = [corners(c) for c in cells]
    points = sorted({p for cs in corner_points for p in cs}, key=lambda p: (p[1], p[0]))
    node_of = {p: i for i, p in enumerate(points)}
    graph = nx.Graph(hex_cells=tuple(cells))
    for i, p in enumerate(points):
        graph.add_node(i, pos=p, corners=())
    for h, cs in enumerate(corner_points):
        ids = [node_of[p] for p in cs]
        for k in range(6):
            graph.nodes[ids[k]]["corners"] += ((h, k),)
            a, b = ids[k], ids[(k + 1) % 6]
            if not graph.has_edge(a, b):
                graph.add_edge(a, b, sides=())
            graph.edges[a, b]["sides"] += ((h, k),)

    def midpoint(pair: tuple[int, int]) -> tuple[int, int]:
        (ax, ay), (bx, by) = points[pair[0]], points[pair[1]]
        return (ay + by, ax + bx)

    for i, (a, b) in enumerate(sorted(((min(e), max(e)) for e in graph.edges), key=midpoint)):
        graph.edges[a, b]["id"] = i
    return graph


def tables_from_graph(graph: nx.Graph) -> Topology:
    """Derive every adjacency table from the graph."""
    cells: tuple[Axial, ...] = graph.graph["hex_cells"]
    n_nodes, n_edges, n_hexes = graph.number_of_nodes(), graph.number_of_edges(), len(cells)
    hex_nodes = [[0] * 6 for _ in range(n_hexes)]
    for node, data in graph.nodes(data=True):
        for h, k in data["corners"]:
            hex_nodes[h][k] = node
    hex_edges = [[0] * 6 for _ in range(n_hexes)]
    edge_nodes: list[tuple[int, int]] = [(0, 0)] * n_edges
    for a, b, data in graph.edges(data=True):
        edge_nodes[data["id"]] = (min(a, b), max(a, b))
        for h, k in data["sides"]:
            hex_edges[h][k] = data["id"]
    node_edges = tuple(
        tuple(sorted(graph.edges[n, m]["id"] for m in graph.neighbors(n))) for n in range(n_nodes)
    )
    edge_neighbours = tuple(
        tuple(sorted({f for n in pair for f in node_edges[n]} - {e}))
        for e, pair in enumerate(edge_nodes)
    )
    hexes_of_edge = [[h for h, _ in graph.edges[pair]["sides"]] for pair in edge_nodes]
    hex_neighbours = tuple(
        tuple(sorted({g for e in hex_edges[h] for g in hexes_of_edge[e]} - {h}))
        for h in range(n_hexes)
    )
    node_pos = tuple(tuple(graph.nodes[n]["pos"]) for n in range(n_nodes))
    coastal = [e for e, pair in enumerate(edge_nodes) if len(graph.edges[pair]["sides"]) == 1]

    def clockwise_angle(e: int) -> float:
        (ax, ay), (bx, by) = node_pos[edge_nodes[e][0]], node_pos[edge_nodes[e][1]]
        x, y = (ax + bx) * math.sqrt(3) / 2, (ay + by) / 2.0
        # Screen coordinates (y down): atan2 grows clockwise. Start at the top-left.
        return (math.atan2(y, x) - math.atan2(-9.0, -3.0)) % (2 * math.pi)

    harbor_edges = tuple(hex_edges[h][side] for h, side in HARBOR_SITES)
    if not set(harbor_edges) <= set(coastal):
        raise AssertionError("a harbor site is on an inland path")
    return Topology(
        hex_cells=tuple(cells),
        hex_nodes=tuple(map(tuple, hex_nodes)),
        hex_edges=tuple(map(tuple, hex_edges)),
        hex_neighbours=hex_neighbours,
        node_hexes=tuple(
            tuple(sorted(h for h, _ in graph.nodes[n]["corners"])) for n in range(n_nodes)
        ),
        node_neighbours=tuple(tuple(sorted(graph.neighbors(n))) for n in range(n_nodes)),
        node_edges=node_edges,
        edge_nodes=tuple(edge_nodes),
        edge_neighbours=edge_neighbours,
        node_pos=node_pos,
        coast=tuple(sorted(coastal, key=clockwise_angle)),
        harbor_edges=harbor_edges,
    )


@cache
def standard_topology() -> Topology:
    """The 19-hex base-game board: 54 intersections, 72 paths, 9 harbor sites.

    Read from the checked-in tables when present (no networkx import), else derived from
    the graph."""
    try:
        with open(_TABLES_PATH, encoding="utf-8") as file:
            data = json.load(file)
        return Topology(**{n: _to_tuples(data[n]) for n in field_names(Topology)})
    except (OSError, KeyError, ValueError, TypeError):
        return tables_from_graph(build_graph())


def write_tables(path: str | os.PathLike[str] = _TABLES_PATH) -> None:
    """Derive the tables from the graph and write them as JSON (to ``TABLES_FILE``)."""
    tables = tables_from_graph(build_graph()).tables()
    with open(path, "w", encoding="utf-8") as file:
        file.write(json.dumps(tables, separators=(",", ":")) + "\n")
