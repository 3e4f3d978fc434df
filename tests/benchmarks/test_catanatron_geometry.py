"""Our side of the catanatron bridge's board mapping (``benchmarks/catanatron_bridge/
geometry.py``), checked against catanatron's conventions restated here as facts (this
suite never imports catanatron; ``selfcheck.py`` checks the other side in its venv)."""

from __future__ import annotations

import pytest

from benchmarks.catanatron_bridge.geometry import (
    DIRECTIONS,
    NODE_REFS,
    corner_position,
    harbor_tiles,
    hex_cubes,
    node_at,
)
from engine import Game, RulesConfig
from engine.board.topology import HARBOR_SITES, standard_topology

SHARED_CORNERS = {
    "EAST": (("NORTHEAST", "NORTHWEST"), ("SOUTHEAST", "SOUTHWEST")),
    "SOUTHEAST": (("SOUTH", "NORTHWEST"), ("SOUTHEAST", "NORTH")),
    "SOUTHWEST": (("SOUTH", "NORTHEAST"), ("SOUTHWEST", "NORTH")),
    "WEST": (("NORTHWEST", "NORTHEAST"), ("SOUTHWEST", "SOUTHEAST")),
    "NORTHWEST": (("NORTH", "SOUTHEAST"), ("NORTHWEST", "SOUTH")),
    "NORTHEAST": (("NORTH", "SOUTHWEST"), ("NORTHEAST", "SOUTH")),
}
"""catanatron's tiles share nodes with their neighbour in each direction: (this tile's
corner, the neighbour's corner) pairs (how its ``get_nodes_and_edges`` attaches tiles)."""
PORT_CORNERS = {
    "WEST": ("NORTHWEST", "SOUTHWEST"),
    "NORTHWEST": ("NORTH", "NORTHWEST"),
    "NORTHEAST": ("NORTHEAST", "NORTH"),
    "EAST": ("SOUTHEAST", "NORTHEAST"),
    "SOUTHEAST": ("SOUTH", "SOUTHEAST"),
    "SOUTHWEST": ("SOUTHWEST", "SOUTH"),
}
"""The two corners of a port tile facing each direction (its ``PORT_DIRECTION_TO_NODEREFS``)."""
UNIT = {name: vector for vector, name in DIRECTIONS.items()}


def plus(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def test_our_hexes_are_catanatrons_base_land_in_cube_coordinates() -> None:
    cubes = hex_cubes()
    assert len(set(cubes)) == 19
    assert all(sum(c) == 0 and max(map(abs, c)) <= 2 for c in cubes)
    topo = standard_topology()
    for h, c in enumerate(cubes):
        next_door = {cubes.index(plus(c, v)) for v in UNIT.values() if plus(c, v) in cubes}
        assert next_door == set(topo.hex_neighbours[h])


def test_corners_are_our_intersections_and_neighbours_share_them_as_catanatron_does() -> None:
    topo, cubes = standard_topology(), hex_cubes()
    for h, c in enumerate(cubes):
        assert [node_at(corner_position(c, ref)) for ref in NODE_REFS] == list(topo.hex_nodes[h])
        for direction, pairs in SHARED_CORNERS.items():
            other = plus(c, UNIT[direction])
            for mine, theirs in pairs:
                assert corner_position(c, mine) == corner_position(other, theirs)
    corners = {corner_position(c, ref) for c in cubes for ref in NODE_REFS}
    assert len(corners) == topo.num_nodes  # one intersection per distinct corner


@pytest.mark.parametrize("seed", range(10))
def test_ports_face_our_harbor_paths_with_their_kind(seed: int) -> None:
    layout = Game.new(RulesConfig(), seed).layout
    topo, ports = standard_topology(), harbor_tiles(layout)
    assert len(ports) == len(HARBOR_SITES)
    for (h, side), kind in zip(HARBOR_SITES, layout.harbors, strict=True):
        edge = topo.hex_edges[h][side]
        [(water, (_, name))] = [
            (w, p) for w, p in ports.items() if plus(w, UNIT[p[0]]) == hex_cubes()[h]
            and {node_at(corner_position(w, r)) for r in PORT_CORNERS[p[0]]}
            == set(topo.edge_nodes[edge])
        ]  # fmt: skip
        assert max(map(abs, water)) == 3  # on the sea ring
        assert name == (None if kind is None else ("BRICK", "WOOD", "SHEEP", "WHEAT", "ORE")[kind])
