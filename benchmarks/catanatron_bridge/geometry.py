"""Our board in catanatron's words, by geometry (this module never imports catanatron).

Both engines lay out pointy-top hexes with ``y`` growing southwards. Our hex ``(q, r)``
(axial, :mod:`engine.board.coords`) is catanatron's cube coordinate ``(q, -q - r, r)``:
its unit vectors name the same neighbours (``EAST`` = ``(1, -1, 0)`` = our ``(1, 0)``...).
A catanatron node is a (tile, ``NodeRef``) pair: the ``NodeRef``s ``NORTH`` ...
``NORTHWEST`` are our corners 0..5 in the same clockwise order, so each one sits at one
of our intersections' integer positions (``Topology.node_pos``). A harbor is a water tile
next to the coast with the ``Direction`` from that water tile to the land it serves.

The bridge's catanatron side (``mirror.py``) maps its node ids to ours through these
positions and checks the whole mapping when it builds a map; ``tests/benchmarks`` check
this side against our topology.
"""

from __future__ import annotations

from engine.board.coords import CORNER_OFFSETS, SIDE_NEIGHBOURS, Point, centre
from engine.board.layouts import BoardLayout
from engine.board.topology import HARBOR_SITES, standard_topology
from engine.types import Resource

Cube = tuple[int, int, int]

NODE_REFS = ("NORTH", "NORTHEAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "NORTHWEST")
"""catanatron's ``NodeRef`` names, in our corner order (``CORNER_OFFSETS``)."""
DIRECTIONS = {
    (1, -1, 0): "EAST",
    (0, -1, 1): "SOUTHEAST",
    (-1, 0, 1): "SOUTHWEST",
    (-1, 1, 0): "WEST",
    (0, 1, -1): "NORTHWEST",
    (1, 0, -1): "NORTHEAST",
}
"""catanatron's ``Direction`` of each cube unit vector (its ``UNIT_VECTORS``)."""
RESOURCE_NAMES = ("BRICK", "WOOD", "SHEEP", "WHEAT", "ORE")
"""catanatron's name of each of our resources (``Resource.BRICK`` ... ``Resource.ORE``)."""
THEIR_RESOURCE_ORDER = ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")
"""The order of catanatron's resource counts (its ``freqdeck``)."""
DEV_NAMES = ("KNIGHT", "ROAD_BUILDING", "YEAR_OF_PLENTY", "MONOPOLY", "VICTORY_POINT")
"""catanatron's name of each of our development cards (``DevCard`` order)."""


def cube(q: int, r: int) -> Cube:
    """catanatron's cube coordinate of our axial hex ``(q, r)``."""
    return (q, -q - r, r)


def axial(c: Cube) -> tuple[int, int]:
    return (c[0], c[2])


def hex_cubes() -> tuple[Cube, ...]:
    """The cube coordinate of each of our hexes, by hex index."""
    return tuple(cube(q, r) for q, r in standard_topology().hex_cells)


def corner_position(c: Cube, node_ref: str) -> Point:
    """Where corner ``node_ref`` of the tile at ``c`` lies, in our integer units."""
    x, y = centre(axial(c))
    dx, dy = CORNER_OFFSETS[NODE_REFS.index(node_ref)]
    return (x + dx, y + dy)


def node_at(position: Point) -> int | None:
    """Our intersection at ``position`` (None: a corner of the sea only)."""
    return _NODE_AT.get(position)


def harbor_tiles(layout: BoardLayout) -> dict[Cube, tuple[str, str | None]]:
    """Each harbor as catanatron places a port: the water tile's cube coordinate, the
    ``Direction`` from it to the land, and the resource (None: 3:1)."""
    cells = standard_topology().hex_cells
    ports: dict[Cube, tuple[str, str | None]] = {}
    for (h, side), kind in zip(HARBOR_SITES, layout.harbors, strict=True):
        q, r = cells[h]
        dq, dr = SIDE_NEIGHBOURS[side]
        water = cube(q + dq, r + dr)
        toward_land = (-dq, dq + dr, -dr)  # cube of the axial step (-dq, -dr)
        name = None if kind is None else RESOURCE_NAMES[Resource(kind)]
        ports[water] = (DIRECTIONS[toward_land], name)
    return ports


_NODE_AT = {p: n for n, p in enumerate(standard_topology().node_pos)}
