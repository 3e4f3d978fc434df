"""The board as SVG, drawn once here for the server's first paint and described as JSON
for the browser's viewer (:func:`geometry`): the browser fills the same templates with
the same preformatted coordinates, so both draw the same markup.

The static board (:func:`board_svg`'s hexes, resource icons, number tokens with their
probability dots, harbors with ratio and resource) never changes during a game; the
pieces, the robber and the last move's highlight are filled from :data:`TEMPLATES`.
Seats differ by colour and by a mark (circle, square, triangle, diamond) drawn on every
piece, so colour-blind viewers can tell them apart.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from functools import cache
from html import escape
from typing import Any

from engine.actions import BuildCity, BuildRoad, BuildSettlement, MoveRobber
from engine.board.coords import centre, corners
from engine.board.layouts import BoardLayout
from engine.board.topology import standard_topology
from engine.replay import ReplayStep
from engine.types import Resource, Terrain

SEAT_COLOURS = ("#c0392b", "#2e6bd6", "#f4f4f4", "#e69f00")
"""Red, blue, white, orange (the orange leans yellow: it stays apart from the red when
red and green are hard to tell apart)."""
SEAT_INK = ("#ffffff", "#ffffff", "#111111", "#111111")
"""The colour of a seat's mark on its pieces."""
SEAT_MARKS = (
    "M-3.4,0a3.4,3.4 0 1,0 6.8,0a3.4,3.4 0 1,0 -6.8,0z",  # circle
    "M-3,-3h6v6h-6z",  # square
    "M0,-3.8L3.7,2.8H-3.7z",  # triangle
    "M0,-4.2L4.2,0L0,4.2L-4.2,0z",  # diamond
)
TERRAIN_COLOURS = {
    Terrain.HILLS: "#c8643c", Terrain.FOREST: "#2f7d32", Terrain.PASTURE: "#8bc34a",
    Terrain.FIELDS: "#f2c230", Terrain.MOUNTAINS: "#8d8d8d", Terrain.DESERT: "#e8d7a5",
}  # fmt: skip
ICONS = {
    Terrain.HILLS: (  # bricks
        '<g stroke="#f6d5c3" stroke-width="1" fill="#8a3b1e">'
        '<rect x="-9" y="-1" width="8" height="5"/><rect x="1" y="-1" width="8" height="5"/>'
        '<rect x="-4" y="-6" width="8" height="5"/></g>'
    ),
    Terrain.FOREST: (  # two trees
        '<g fill="#174d1a"><path d="M-5,-9L-10,1H0z"/><path d="M5,-7L0,3H10z"/></g>'
        '<g stroke="#5b3a1a" stroke-width="2"><path d="M-5,1v4M5,3v3"/></g>'
    ),
    Terrain.PASTURE: (  # a sheep
        '<ellipse cx="1" cy="0" rx="7" ry="4.5" fill="#fafafa" stroke="#555" '
        'stroke-width=".8"/><circle cx="-6.5" cy="-2" r="2.6" fill="#333"/>'
        '<path d="M-2,4v3M4,4v3" stroke="#333" stroke-width="1.4"/>'
    ),
    Terrain.FIELDS: (  # a sheaf of grain
        '<g stroke="#7a5200" stroke-width="1.4" fill="#b07d00">'
        '<path d="M0,8V-9M0,8L-5,-6M0,8L5,-6" fill="none"/>'
        '<ellipse cx="0" cy="-8" rx="1.8" ry="3"/><ellipse cx="-5" cy="-6" rx="1.8" ry="3"/>'
        '<ellipse cx="5" cy="-6" rx="1.8" ry="3"/></g>'
    ),
    Terrain.MOUNTAINS: (  # peaks with snow
        '<path d="M-11,6L-3,-8L5,6z" fill="#4a4a4a"/><path d="M-1,6L5,-3L11,6z" '
        'fill="#5e5e5e"/><path d="M-3,-8L-5.5,-3.6L-3,-4.6L-0.6,-3.6z" fill="#fff"/>'
    ),
    Terrain.DESERT: (  # a cactus
        '<path d="M0,8V-8M0,1H-4V-4M0,-1H4V-5" stroke="#5f7d2a" stroke-width="2.6" '
        'stroke-linecap="round" fill="none"/>'
    ),
}
SIZE = 40.0
SX, SY = SIZE * math.sqrt(3) / 2, SIZE / 2
"""Screen units per coordinate unit (see :mod:`engine.board.coords`)."""
ICON_DY, TOKEN_DY, TOKEN_R = -20.0, 5.0, 14.0
ROBBER_DX, ROBBER_DY = -24.0, 6.0
"""The robber stands beside the number token, never on it."""

TEMPLATES = {
    "road": (
        '<g class="road" data-seat="{seat}"><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
        'class="road-edge"/><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="road-fill" '
        'stroke="{colour}"/><use href="#mark-{seat}" transform="translate({mx} {my}) '
        'scale(.75)"/></g>'
    ),
    "settlement": (
        '<g class="settlement" data-seat="{seat}" transform="translate({x} {y})">'
        '<path d="M-7.5,7.5V-2L0,-9.5L7.5,-2V7.5Z" fill="{colour}" class="piece"/>'
        '<use href="#mark-{seat}" y="2.3"/></g>'
    ),
    "city": (
        '<g class="city" data-seat="{seat}" transform="translate({x} {y})">'
        '<path d="M-12,9.5V-3L-6,-10L0,-3V-1H12V9.5Z" fill="{colour}" class="piece"/>'
        '<use href="#mark-{seat}" x="5" y="4.3"/><use href="#mark-{seat}" x="-6" y="3.3"/></g>'
    ),
    "robber": (
        '<g class="robber" transform="translate({x} {y})"><title>the robber</title>'
        '<path d="M-4,-5C-7,0 -7,5 -7.5,10H7.5C7,5 7,0 4,-5Z"/><circle cy="-9" r="4.8"/></g>'
    ),
    "last-node": '<circle class="last-move" cx="{x}" cy="{y}" r="15"/>',
    "last-edge": '<line class="last-move" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>',
    "last-hex": '<polygon class="last-move" points="{points}"/>',
}
"""Markup of what changes during a game: ``{name}`` is filled from :func:`geometry`'s
strings (and ``seat``, ``colour``)."""
PLACES = {"node": "nodes", "edge": "edges", "hex": "hexes"}
"""Where :func:`geometry` keeps each kind of place."""
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``{name}`` replaced (the browser does the same)."""
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def _num(value: float) -> str:
    return f"{round(value, 1):g}"


def _xy(point: tuple[float, float]) -> tuple[float, float]:
    return point[0] * SX, point[1] * SY


@cache
def geometry() -> dict[str, Any]:
    """Every place a piece, the robber or a highlight can be, as preformatted strings:
    ``nodes[n]`` {x, y}; ``edges[e]`` {x1, y1, x2, y2, mx, my}; ``hexes[h]`` {x, y
    (the robber's spot), points}; and the seats' colours. JSON-ready."""
    topo = standard_topology()
    nodes = [{"x": _num(x), "y": _num(y)} for x, y in map(_xy, topo.node_pos)]
    edges = []
    for a, b in topo.edge_nodes:
        (ax, ay), (bx, by) = _xy(topo.node_pos[a]), _xy(topo.node_pos[b])
        edges.append({
            "x1": _num(ax), "y1": _num(ay), "x2": _num(bx), "y2": _num(by),
            "mx": _num((ax + bx) / 2), "my": _num((ay + by) / 2),
        })  # fmt: skip
    hexes = []
    for cell in topo.hex_cells:
        x, y = _xy(centre(cell))
        points = " ".join(f"{_num(px)},{_num(py)}" for px, py in map(_xy, corners(cell)))
        hexes.append({"x": _num(x + ROBBER_DX), "y": _num(y + ROBBER_DY), "points": points})
    return {
        "nodes": nodes,
        "edges": edges,
        "hexes": hexes,
        "colours": list(SEAT_COLOURS),
        "templates": TEMPLATES,
        "places": PLACES,
    }


def pieces_svg(
    edge_owner: Iterable[int], node_owner: Iterable[int], node_kind: Iterable[int]
) -> str:
    """Roads (by edge), then settlements and cities (by node): the order the browser
    draws them in."""
    shape = geometry()
    parts = []
    for edge, owner in enumerate(edge_owner):
        if owner >= 0:
            values = shape["edges"][edge] | {"seat": str(owner), "colour": SEAT_COLOURS[owner]}
            parts.append(fill(TEMPLATES["road"], values))
    for node, (owner, kind) in enumerate(zip(node_owner, node_kind, strict=True)):
        if owner >= 0:
            values = shape["nodes"][node] | {"seat": str(owner), "colour": SEAT_COLOURS[owner]}
            parts.append(fill(TEMPLATES["city" if kind == 2 else "settlement"], values))
    return "".join(parts)


def last_move(step: ReplayStep | None) -> list[Any] | None:
    """What the step changed on the board, to highlight: ``["node", n]``, ``["edge",
    e]`` or ``["hex", h]`` (the robber's new hex); None for anything else."""
    match step.action if step else None:
        case BuildSettlement(node=node) | BuildCity(node=node):
            return ["node", node]
        case BuildRoad(edge=edge):
            return ["edge", edge]
        case MoveRobber(hex=hex_):
            return ["hex", hex_]
    return None


def last_move_svg(last: list[Any] | None) -> str:
    if last is None:
        return ""
    kind, index = last
    return fill(TEMPLATES[f"last-{kind}"], geometry()[PLACES[kind]][index])


def _defs() -> str:
    marks = "".join(
        f'<g id="mark-{seat}"><path d="{path}" fill="{SEAT_INK[seat]}"/></g>'
        for seat, path in enumerate(SEAT_MARKS)
    )
    icons = "".join(f'<g id="icon-{t.label}">{svg}</g>' for t, svg in ICONS.items())
    return f"<defs>{marks}{icons}</defs>"


def _pips(number: int) -> int:
    """Dots under a number: how many of the 36 dice pairs roll it."""
    return 6 - abs(7 - number)


def _token(number: int, x: float, y: float) -> str:
    cy = y + TOKEN_DY
    pips = _pips(number)
    dots = "".join(
        f'<circle cx="{_num(x + (i - (pips - 1) / 2) * 3.6)}" cy="{_num(cy + 7.5)}" r="1.3"/>'
        for i in range(pips)
    )
    hot = " hot" if number in (6, 8) else ""
    return (
        f'<g class="token{hot}" data-number="{number}"><circle cx="{_num(x)}" cy="{_num(cy)}" '
        f'r="{TOKEN_R:g}"/><text x="{_num(x)}" y="{_num(cy + 3.5)}" class="number">{number}'
        f'</text><g class="pips">{dots}</g></g>'
    )


def _harbor(site: int, kind: Resource | None) -> str:
    topo = standard_topology()
    a, b = (topo.node_pos[n] for n in topo.edge_nodes[topo.harbor_edges[site]])
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    reach = math.hypot(mx, my) or 1.0
    ox, oy = mx + 24 * mx / reach, my + 24 * my / reach  # out to sea
    ratio = "3:1" if kind is None else "2:1"
    what = "any resource" if kind is None else Resource(kind).label
    icon = (
        ""
        if kind is None
        else f'<use href="#icon-{Terrain(int(kind)).label}" '
        f'transform="translate({_num(ox)} {_num(oy + 6)}) scale(.5)"/>'
    )
    label_y = oy - 1 if kind is not None else oy + 3.5
    return (
        f'<g class="harbor" data-kind="{what}"><title>harbor: {ratio} {what}</title>'
        f'<path class="pier" d="M{_num(ax)},{_num(ay)}L{_num(ox)},{_num(oy)}L{_num(bx)},'
        f'{_num(by)}"/><circle cx="{_num(ox)}" cy="{_num(oy)}" r="13"/>'
        f'<text x="{_num(ox)}" y="{_num(label_y)}" class="ratio">{ratio}</text>{icon}</g>'
    )


@cache
def _static_board(layout: BoardLayout) -> tuple[str, str]:
    """(the opening tag with its defs, the hexes and harbors) of ``layout``."""
    topo = standard_topology()
    parts: list[str] = []
    for site, kind in enumerate(layout.harbors):
        parts.append(_harbor(site, kind))
    for index, cell in enumerate(topo.hex_cells):
        terrain = layout.terrains[index]
        points = " ".join(f"{_num(px)},{_num(py)}" for px, py in map(_xy, corners(cell)))
        x, y = _xy(centre(cell))
        number = layout.numbers[index]
        words = terrain.label + (
            f" ({Resource(int(terrain)).label}), {number}" if terrain != Terrain.DESERT else ""
        )
        parts.append(
            f'<g class="tile" data-hex="{index}"><title>{escape(words)}</title>'
            f'<polygon class="hex" points="{points}" fill="{TERRAIN_COLOURS[terrain]}"/>'
            f'<use href="#icon-{terrain.label}" x="{_num(x)}" y="{_num(y + ICON_DY)}"/></g>'
        )
        if number:
            parts.append(_token(number, x, y))
    xs = [_xy(p)[0] for p in topo.node_pos]
    ys = [_xy(p)[1] for p in topo.node_pos]
    pad = 62
    left, top = min(xs) - pad, min(ys) - pad
    box = f"{_num(left)} {_num(top)} {_num(max(xs) - left + pad)} {_num(max(ys) - top + pad)}"
    opening = f'<svg class="board" viewBox="{box}" role="img" aria-label="the board">{_defs()}'
    return opening, "".join(parts)


def board_svg(
    layout: BoardLayout,
    state: Any,
    last: list[Any] | None = None,
    rolled: int | None = None,
) -> str:
    """The board at ``state`` (an engine ``GameState``): the static board, then groups
    the browser redraws: ``#last-move``, ``#pieces``, ``#robber``. ``rolled``: the
    number just rolled (its tokens are marked)."""
    opening, static = _static_board(layout)
    if rolled:
        static = static.replace(f'data-number="{rolled}"', f'data-number="{rolled}" data-rolled=""')
    robber = fill(TEMPLATES["robber"], geometry()["hexes"][state.robber])
    pieces = pieces_svg(state.edge_owner, state.node_owner, state.node_kind)
    return (
        f'{opening}<g id="static">{static}</g><g id="last-move">{last_move_svg(last)}</g>'
        f'<g id="pieces">{pieces}</g><g id="robber">{robber}</g></svg>'
    )


def mark_svg(seat: int) -> str:
    """A seat's colour and mark as a small standalone SVG (legends, the players)."""
    return (
        f'<svg class="swatch" viewBox="-6 -6 12 12" aria-hidden="true">'
        f'<rect x="-6" y="-6" width="12" height="12" fill="{SEAT_COLOURS[seat]}"/>'
        f'<path d="{SEAT_MARKS[seat]}" fill="{SEAT_INK[seat]}"/></svg>'
    )
