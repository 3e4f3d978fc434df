"""The replay viewer, drawn on the server: the board at any step as SVG (hexes, numbers,
harbors, roads, settlements, cities, the robber), each player's panel, the step's event
in words, and the steps to jump to. The step is in the URL, so a moment can be shared;
``view`` = a seat shows only what that seat saw (other hands as counts)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.actions import (
    ConfirmTrade,
    CounterTrade,
    Discard,
    MaritimeTrade,
    MoveRobber,
    PlayMonopoly,
    PlayYearOfPlenty,
    ProposeTrade,
)
from engine.board.coords import centre, corners
from engine.board.topology import standard_topology
from engine.game import Game
from engine.replay import Replay, ReplayStep, state_at
from engine.types import Bag, Resource, Terrain

SEAT_COLOURS = ("#c0392b", "#2e6bd6", "#f4f4f4", "#e67e22")
SEAT_NAMES = ("Red", "Blue", "White", "Orange")
TERRAIN_COLOURS = {
    Terrain.HILLS: "#c8643c", Terrain.FOREST: "#2f7d32", Terrain.PASTURE: "#8bc34a",
    Terrain.FIELDS: "#f2c230", Terrain.MOUNTAINS: "#8d8d8d", Terrain.DESERT: "#e8d7a5",
}  # fmt: skip
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
RECENT = 8
"""How many of the latest events the side panel lists."""
SIZE = 40.0
SX, SY = SIZE * math.sqrt(3) / 2, SIZE / 2
"""Screen units per coordinate unit (see :mod:`engine.board.coords`)."""


def _xy(point: tuple[int, int]) -> tuple[float, float]:
    return round(point[0] * SX, 1), round(point[1] * SY, 1)


@dataclass
class PlayerPanel:
    seat: int
    name: str
    colour: str
    points: int
    cards: int
    hand: dict[str, int] | None
    """Resources by name; None where this view may not see them."""
    dev_cards: int
    knights: int
    longest_road: bool
    largest_army: bool


@dataclass
class Frame:
    step: int
    steps: int
    svg: str
    players: list[PlayerPanel]
    dice: tuple[int, int] | None
    jumps: dict[str, int | None] = field(default_factory=dict)
    recent: list[tuple[int, str]] = field(default_factory=list)
    """The last few steps up to this one in words, newest first: (step, words)."""

    @property
    def event(self) -> str:
        """This step in words."""
        return self.recent[0][1] if self.recent else "The board is set."

    @property
    def dice_faces(self) -> str:
        """The dice on the table as faces and a sum ("⚅ ⚄ = 11"); "" before any roll."""
        if not self.dice:
            return ""
        a, b = self.dice
        return f"{DIE_FACES[a - 1]} {DIE_FACES[b - 1]} = {a + b}"


def frame(replay: Replay, step: int, view: int | None = None, public: bool = False) -> Frame:
    """The viewer at ``step`` (clamped into 0..steps), seen by all or by seat ``view``;
    ``public``: only what every seat sees (a running match's live view)."""
    total = len(replay.steps)
    step = max(0, min(step, total))
    game = state_at(replay, step)
    names = [str(s.get("name", SEAT_NAMES[s["seat"]])) for s in replay.seats] or [
        SEAT_NAMES[i] for i in range(replay.config.players)
    ]
    recent = [
        (k, describe(replay.steps[k - 1], names)) for k in range(step, max(0, step - RECENT), -1)
    ]
    return Frame(
        step=step,
        steps=total,
        svg=board_svg(game),
        players=_panels(game, names, view, public),
        dice=game.state.dice,
        jumps=_jumps(replay, step),
        recent=recent,
    )


def board_svg(game: Game) -> str:
    """The board of ``game`` as an SVG document fragment."""
    topo = standard_topology()
    state, layout = game.state, game.layout
    parts: list[str] = []
    for index, cell in enumerate(topo.hex_cells):
        points = " ".join(f"{x},{y}" for x, y in map(_xy, corners(cell)))
        colour = TERRAIN_COLOURS[layout.terrains[index]]
        parts.append(f'<polygon class="hex" points="{points}" fill="{colour}"/>')
        x, y = _xy(centre(cell))
        number = layout.numbers[index]
        if number:
            red = ' fill="#b00020"' if number in (6, 8) else ""
            parts.append(
                f'<circle cx="{x}" cy="{y}" r="13" class="token"/>'
                f'<text x="{x}" y="{y + 5}" class="number"{red}>{number}</text>'
            )
        if index == state.robber:
            parts.append(f'<circle cx="{x - 18}" cy="{y - 14}" r="8" class="robber"/>')
    for site, edge in enumerate(topo.harbor_edges):
        a, b = (topo.node_pos[n] for n in topo.edge_nodes[edge])
        (ax, ay), (bx, by) = _xy(a), _xy(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        ox, oy = mx * 1.12, my * 1.12  # out to sea, away from the centre
        reach = math.hypot(mx, my) or 1.0
        # The label sits beyond the line's end: further out sideways, where it is wide.
        tx, ty = round(ox + 26 * mx / reach, 1), round(oy + 9 * my / reach + 4, 1)
        kind = layout.harbors[site]
        label = "3:1" if kind is None else f"2:1 {Resource(kind).name.lower()}"
        parts.append(
            f'<line x1="{mx}" y1="{my}" x2="{ox}" y2="{oy}" class="harbor-line"/>'
            f'<text x="{tx}" y="{ty}" class="harbor">{label}</text>'
        )
    for edge, owner in enumerate(state.edge_owner):
        if owner >= 0:
            a, b = (topo.node_pos[n] for n in topo.edge_nodes[edge])
            (ax, ay), (bx, by) = _xy(a), _xy(b)
            parts.append(  # a dark edge under the colour: white roads show on light land
                f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" class="road-edge"/>'
                f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" class="road" '
                f'stroke="{SEAT_COLOURS[owner]}" data-seat="{owner}"/>'
            )
    for node, owner in enumerate(state.node_owner):
        if owner >= 0:
            x, y = _xy(topo.node_pos[node])
            colour = SEAT_COLOURS[owner]
            if state.node_kind[node] == 2:
                parts.append(
                    f'<rect x="{x - 9}" y="{y - 9}" width="18" height="18" class="city" '
                    f'fill="{colour}" data-seat="{owner}"/>'
                )
            else:
                parts.append(
                    f'<circle cx="{x}" cy="{y}" r="7" class="settlement" fill="{colour}" '
                    f'data-seat="{owner}"/>'
                )
    xs = [_xy(p)[0] for p in topo.node_pos]
    ys = [_xy(p)[1] for p in topo.node_pos]
    pad = 70
    left, top = min(xs) - pad, min(ys) - pad
    box = f"{left} {top} {max(xs) - left + pad} {max(ys) - top + pad}"
    return (
        f'<svg class="board" viewBox="{box}" role="img" aria-label="the board">'
        + "".join(parts)
        + "</svg>"
    )


def _panels(game: Game, names: list[str], view: int | None, public: bool) -> list[PlayerPanel]:
    state = game.state
    panels = []
    for seat in range(state.n):
        hand = state.hands[seat]
        visible = not public and (view is None or view == seat)
        panels.append(
            PlayerPanel(
                seat=seat,
                name=names[seat] if seat < len(names) else SEAT_NAMES[seat],
                colour=SEAT_COLOURS[seat],
                points=state.public_vp[seat] if not visible else _all_points(state, seat),
                cards=sum(hand),
                hand={Resource(r).name.lower(): n for r, n in enumerate(hand)} if visible else None,
                dev_cards=sum(state.devs[seat]),
                knights=state.knights[seat],
                longest_road=state.longest_road == seat,
                largest_army=state.largest_army == seat,
            )
        )
    return panels


def _all_points(state: Any, seat: int) -> int:
    """Public points plus the victory-point cards only the seat (and the all-seeing
    view) know of."""
    return int(state.public_vp[seat] + state.devs[seat][4])


VERBS = {
    "roll_dice": "rolls",
    "build_road": "builds a road",
    "build_settlement": "builds a settlement",
    "build_city": "builds a city",
    "buy_dev_card": "buys a development card",
    "end_turn": "ends the turn",
    "play_knight": "plays a knight",
    "play_road_building": "plays road building",
    "play_year_of_plenty": "plays year of plenty",
    "play_monopoly": "plays monopoly",
    "discard": "discards",
    "move_robber": "moves the robber",
    "maritime_trade": "trades with the bank",
    "propose_trade": "offers a trade",
    "accept_trade": "accepts",
    "reject_trade": "declines",
    "confirm_trade": "confirms the trade",
    "cancel_trade": "withdraws the offer",
    "counter_trade": "counters the offer",
}


def describe(step: ReplayStep, names: list[str]) -> str:
    """One step in words: "Red builds a city", "Blue rolls 3 + 4 = 7", "White offers
    2 wool for 1 ore", "Red accepts", "White trades with Red"."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else SEAT_NAMES[seat % len(SEAT_NAMES)]

    who, action, kind = name(step.seat), step.action, step.action.kind
    if kind == "roll_dice" and isinstance(step.outcome, list) and len(step.outcome) == 2:
        a, b = step.outcome
        return f"{who} rolls {a} + {b} = {a + b}"
    match action:
        case MoveRobber(victim=int(victim)):
            return f"{who} moves the robber and steals a card from {name(victim)}"
        case ProposeTrade(give=give, get=get):
            return f"{who} offers {bag_words(give)} for {bag_words(get)}"
        case CounterTrade(give=give, get=get):
            return f"{who} counters: {bag_words(give)} for {bag_words(get)}"
        case ConfirmTrade(seat=seat):
            return f"{who} trades with {name(seat)}"
        case MaritimeTrade(give=give_one, get=get_one):
            return f"{who} trades {give_one.label} for {get_one.label} with the bank"
        case Discard(resource=resource):
            return f"{who} discards 1 {resource.label}"
        case PlayMonopoly(resource=resource):
            return f"{who} plays monopoly on {resource.label}"
        case PlayYearOfPlenty(first=first, second=second):
            return f"{who} plays year of plenty: {first.label} and {second.label}"
    return f"{who} {VERBS.get(kind, str(action))}"


def bag_words(bag: Bag) -> str:
    """A bag of cards in words: "2 wool and 1 ore"; "nothing" when empty."""
    parts = [f"{n} {Resource(r).label}" for r, n in enumerate(bag) if n]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


BUILDS = ("build_road", "build_settlement", "build_city")


def _jumps(replay: Replay, step: int) -> dict[str, int | None]:
    """Where the navigation buttons go from ``step``."""
    steps = replay.steps
    total = len(steps)

    def next_where(test: Any) -> int | None:
        for k in range(step, total):
            if test(steps[k]):
                return k + 1
        return None

    return {
        "first": 0 if step else None,
        "back": step - 1 if step else None,
        "forward": step + 1 if step < total else None,
        "last": total if step < total else None,
        "next_turn": next_where(lambda s: s.action.kind == "end_turn"),
        "next_seven": next_where(
            lambda s: (
                s.action.kind == "roll_dice" and isinstance(s.outcome, list) and sum(s.outcome) == 7
            )
        ),
        "next_build": next_where(lambda s: s.action.kind in BUILDS),
    }
