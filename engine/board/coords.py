"""Axial hex coordinates for a pointy-top board, and integer corner positions.

A hex ``(q, r)`` has its centre at ``(2q + r, 3r)`` in units where a corner sits one unit
sideways and one or two units up/down from the centre, so every corner and path midpoint
has integer coordinates (``y`` grows downwards, as on screen).
"""

from __future__ import annotations

from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Final

Axial = tuple[int, int]
Point = tuple[int, int]

#: Corner offsets from a hex centre, clockwise from the top corner.
CORNER_OFFSETS: Final[tuple[Point, ...]] = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
#: Side ``k`` joins corner ``k`` and corner ``k + 1``: NE, E, SE, SW, W, NW.
SIDE_NAMES: Final = ("NE", "E", "SE", "SW", "W", "NW")
#: Axial neighbour across each side, in ``SIDE_NAMES`` order.
SIDE_NEIGHBOURS: Final[tuple[Axial, ...]] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))

RADIUS: Final = 2


def land_hexes(radius: int = RADIUS) -> list[Axial]:
    """All hexes within ``radius`` of the centre, row by row (top to bottom, left to right)."""
    cells = [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]
    return sorted(cells, key=lambda c: (c[1], c[0]))


def centre(cell: Axial) -> Point:
    q, r = cell
    return (2 * q + r, 3 * r)


def corners(cell: Axial) -> list[Point]:
    cx, cy = centre(cell)
    return [(cx + dx, cy + dy) for dx, dy in CORNER_OFFSETS]


def rotate60(cell: Axial) -> Axial:
    """Rotate a hex 60 degrees about the centre of the board."""
    q, r = cell
    return (-r, q + r)


def neighbours(cell: Axial) -> list[Axial]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in SIDE_NEIGHBOURS]
