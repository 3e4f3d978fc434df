"""The charts beside the replay viewer's board, drawn on the server as SVG: each seat's
points over the game, and its dice luck (cumulative resources the dice actually gave it
against what they were expected to give, from the buildings it had at each roll). One
pass over the replay. Pure: the engine and the standard library only.

CSS classes: ``chart-points``, ``chart-luck`` (the ``svg``), ``axis``, ``grid``,
``tick``, ``label``, ``marker`` (the current step), ``seat-line`` with ``data-seat``,
``expected`` (dashed). The legend is the page's (the seats' colours and marks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from html import escape
from typing import Any

from catan_arena.web.board_svg import SEAT_COLOURS
from engine.game import Game
from engine.replay import Replay, iter_states
from engine.state import GameState

WIDTH, HEIGHT = 320.0, 160.0
LEFT, RIGHT, TOP, BOTTOM = 40.0, 8.0, 8.0, 30.0
"""The plot's margins: room for the y ticks and title on the left, the step ticks and
title below."""
CHANCE = {n: (6 - abs(7 - n)) / 36 for n in range(2, 13)}
"""P(two dice sum to n)."""


@dataclass(frozen=True)
class ReplayCharts:
    steps: int
    points: list[list[int]]
    """points[seat][k]: after k steps (hidden victory-point cards as the view allows)."""
    rolls: list[int]
    """The step count after each roll (the x of the luck series)."""
    expected: list[list[float]]
    """expected[seat][i]: cumulative expected production after the i-th roll."""
    actual: list[list[int]]
    """actual[seat][i]: cumulative resources the dice really gave."""

    def totals(self, step: int | None = None) -> list[tuple[int, float]]:
        """(actual, expected) per seat after ``step`` steps (default: the whole game)."""
        done = len(self.rolls) if step is None else sum(1 for k in self.rolls if k <= step)
        return [
            (a[done - 1] if done else 0, e[done - 1] if done else 0.0)
            for a, e in zip(self.actual, self.expected, strict=True)
        ]


def expected_production(state: GameState, seat: int) -> float:
    """Resources ``seat`` expects from the next roll: each hex's yield for it (1 per
    settlement, 2 per city) times the chance of its number; the robber's hex yields
    nothing (the bank's shortage rule is ignored: it is rare and not luck)."""
    return expected_productions(state)[seat]


def expected_productions(state: GameState) -> list[float]:
    """:func:`expected_production` of every seat, in one pass over the board."""
    board, owner, kind = state.board, state.node_owner, state.node_kind
    totals = [0.0] * state.n
    for number, hexes in enumerate(board.hexes_by_number):
        chance = CHANCE.get(number, 0.0) if number != 7 else 0.0
        if not chance:
            continue
        for h in hexes:
            if h == state.robber:
                continue
            for node in board.hex_nodes[h]:
                if owner[node] >= 0:  # -1: nobody's
                    totals[owner[node]] += chance * kind[node]
    return totals


def replay_charts(replay: Replay, view: int | None = None) -> ReplayCharts:
    """The series of ``replay``; ``view`` None: all-seeing points (hidden victory-point
    cards included), a seat: only that seat's hidden cards count."""
    return chart_pass(replay, view)[0]


def chart_pass(
    replay: Replay, view: int | None = None, keep: int | None = None
) -> tuple[ReplayCharts, Game, Game | None]:
    """:func:`replay_charts` and, from the same pass over the replay, its final state
    and (``keep``) a copy of the state after ``keep`` steps: what the viewer's page
    draws, in one re-simulation instead of three."""
    kept: Game | None = None
    last: Game | None = None
    players = replay.config.players
    points: list[list[int]] = [[] for _ in range(players)]
    expected: list[list[float]] = [[] for _ in range(players)]
    actual: list[list[int]] = [[] for _ in range(players)]
    rolls: list[int] = []
    pending: tuple[list[float], list[int]] | None = None
    for k, game in iter_states(replay, checked=False):  # stored by the platform
        last = game
        if k == keep:
            kept = game.copy()
        state = game.state
        if pending is not None:  # the roll just applied: what it paid
            before_expected, before_hands = pending
            for seat in range(players):
                got = max(0, sum(state.hands[seat]) - before_hands[seat])
                expected[seat].append((expected[seat][-1] if expected[seat] else 0.0)
                                      + before_expected[seat])  # fmt: skip
                actual[seat].append((actual[seat][-1] if actual[seat] else 0) + got)
            rolls.append(k)
            pending = None
        for seat in range(players):
            hidden = state.devs[seat][4] if view is None or view == seat else 0
            points[seat].append(int(state.public_vp[seat] + hidden))
        if k < len(replay.steps) and replay.steps[k].action.kind == "roll_dice":
            pending = (
                expected_productions(state),
                [sum(state.hands[s]) for s in range(players)],
            )
    assert last is not None
    return ReplayCharts(len(replay.steps), points, rolls, expected, actual), last, kept


def _x(step: float, steps: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * step / max(1, steps)


def _y(value: float, top: float) -> float:
    return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * value / max(1e-9, top)


def ticks(top: float, most: int = 5) -> list[float]:
    """Round tick values from 0 to ``top``: steps of 1, 2, 2.5 (from 25 up: whole
    numbers stay whole) or 5 times a power of ten, at most ``most`` + 1 of them."""
    raw = max(top, 1e-9) / most
    power = 10 ** math.floor(math.log10(raw))
    factors = (1, 2, 2.5, 5, 10) if power >= 10 else (1, 2, 5, 10)
    step = next(m * power for m in factors if m * power >= raw)
    return [round(i * step, 9) for i in range(int(top / step + 1e-9) + 1)]


def _frame(kind: str, title: str, top: float, steps: int, step: int, y_label: str) -> list[str]:
    base, right = HEIGHT - BOTTOM, WIDTH - RIGHT
    parts = [
        f'<svg class="{kind}" viewBox="0 0 {WIDTH:.0f} {HEIGHT:.0f}" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>',
    ]
    for value in ticks(top):
        y = _y(value, top)
        parts.append(
            f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}"/>'
            f'<text class="label" x="{LEFT - 4}" y="{y + 3:.1f}" text-anchor="end">{value:g}</text>'
        )
    for value in ticks(steps, 4):
        x = _x(value, steps)
        parts.append(
            f'<line class="tick" x1="{x:.1f}" y1="{base}" x2="{x:.1f}" y2="{base + 4}"/>'
            f'<text class="label" x="{x:.1f}" y="{base + 14}" text-anchor="middle">{value:g}</text>'
        )
    marker = _x(step, steps)
    parts += [
        f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{right}" y2="{base}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}"/>',
        f'<text class="label" x="{(LEFT + right) / 2:.1f}" y="{HEIGHT - 3}" '
        'text-anchor="middle">step</text>',
        f'<text class="label" x="10" y="{(TOP + base) / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 10 {(TOP + base) / 2:.1f})">{escape(y_label)}</text>',
        f'<line class="marker" x1="{marker:.1f}" y1="{TOP}" x2="{marker:.1f}" y2="{base}"/>',
    ]
    return parts


MAX_POINTS = 300
"""Vertices per line at most (a long game is thinned evenly, its last point kept)."""


def _line(xs: list[float], ys: list[float], seat: int, extra: str = "") -> str:
    keep = range(0, len(xs), max(1, -(-len(xs) // MAX_POINTS)))
    picked = [*keep, len(xs) - 1] if xs and (len(xs) - 1) not in keep else list(keep)
    points = " ".join(f"{xs[i]:.1f},{ys[i]:.1f}" for i in picked)
    return (
        f'<polyline class="seat-line{extra}" data-seat="{seat}" fill="none" '
        f'stroke="{SEAT_COLOURS[seat % 4]}" points="{points}"/>'
    )


def _points_top(charts: ReplayCharts) -> float:
    return float(max([10, *(max(p) for p in charts.points if p)]))


def _luck_top(charts: ReplayCharts) -> float:
    ends = [*(a[-1] for a in charts.actual if a), *(e[-1] for e in charts.expected if e)]
    return max([1.0, *ends])


def points_svg(charts: ReplayCharts, step: int) -> str:
    """Each seat's points after every step up to ``step`` (no spoilers: the x axis is
    the whole game, the lines stop at the marker)."""
    top = _points_top(charts)
    parts = _frame("chart-points", "points over the game", top, charts.steps, step, "points")
    xs = [_x(k, charts.steps) for k in range(min(step, charts.steps) + 1)]
    for seat, series in enumerate(charts.points):
        parts.append(_line(xs, [_y(v, top) for v in series[: len(xs)]], seat))
    return "".join(parts) + "</svg>"


def luck_svg(charts: ReplayCharts, step: int) -> str:
    """Cumulative resources from the dice (solid) against the expected (dashed), up to
    ``step``."""
    top = _luck_top(charts)
    title = "dice luck: resources got and expected"
    parts = _frame("chart-luck", title, top, charts.steps, step, "resources")
    xs = [_x(k, charts.steps) for k in charts.rolls if k <= step]
    for seat in range(len(charts.actual)):
        expected, actual = charts.expected[seat][: len(xs)], charts.actual[seat][: len(xs)]
        parts.append(_line(xs, [_y(v, top) for v in expected], seat, " expected"))
        parts.append(_line(xs, [_y(v, top) for v in actual], seat))
    return "".join(parts) + "</svg>"


def one_decimal(value: float) -> str:
    """``value`` with one decimal, halves rounded up (as the page and the browser show it)."""
    return str(Decimal(repr(value)).quantize(Decimal("0.1"), ROUND_HALF_UP))


def chart_lines(charts: ReplayCharts) -> dict[str, Any]:
    """The charts' lines for the browser, in the same coordinates as the SVGs above:
    ``x_points[k]`` / ``x_luck[i]`` the x of step k / of the i-th roll; ``rolls`` the
    step of each roll; ``points[seat]``, ``got[seat]``, ``expected[seat]`` the ys (and
    ``got_values``, ``expected_values`` the totals themselves); and
    ``marker`` {left, width} to place the marker at step k (left + width * k / steps)."""
    points_top, luck_top = _points_top(charts), _luck_top(charts)

    def ys(values: list[float] | list[int], top: float) -> list[float]:
        return [round(_y(v, top), 1) for v in values]

    return {
        "steps": charts.steps,
        "x_points": [round(_x(k, charts.steps), 1) for k in range(charts.steps + 1)],
        "x_luck": [round(_x(k, charts.steps), 1) for k in charts.rolls],
        "rolls": charts.rolls,
        "points": [ys(p, points_top) for p in charts.points],
        "got": [ys(a, luck_top) for a in charts.actual],
        "expected": [ys(e, luck_top) for e in charts.expected],
        "got_values": charts.actual,
        "expected_values": [[one_decimal(v) for v in e] for e in charts.expected],
        "marker": {"left": LEFT, "width": WIDTH - LEFT - RIGHT},
    }
