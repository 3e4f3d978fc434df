"""The charts beside the replay viewer's board, drawn on the server as SVG: each seat's
points over the game, and its dice luck (cumulative resources the dice actually gave it
against what they were expected to give, from the buildings it had at each roll). One
pass over the replay. Pure: the engine and the standard library only.

CSS classes: ``chart-points``, ``chart-luck`` (the ``svg``), ``axis``, ``label``,
``marker`` (the current step), ``seat-line`` with ``data-seat``, ``expected`` (dashed).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from engine.replay import Replay, iter_states
from engine.state import GameState

SEAT_COLOURS = ("#c0392b", "#2e6bd6", "#f4f4f4", "#e67e22")
WIDTH, HEIGHT, PAD = 320.0, 140.0, 18.0
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
    board = state.board
    total = 0.0
    for number, hexes in enumerate(board.hexes_by_number):
        chance = CHANCE.get(number, 0.0) if number != 7 else 0.0
        if not chance:
            continue
        for h in hexes:
            if h == state.robber:
                continue
            for node in board.hex_nodes[h]:
                if state.node_owner[node] == seat:
                    total += chance * state.node_kind[node]
    return total


def replay_charts(replay: Replay, view: int | None = None) -> ReplayCharts:
    """The series of ``replay``; ``view`` None: all-seeing points (hidden victory-point
    cards included), a seat: only that seat's hidden cards count."""
    players = replay.config.players
    points: list[list[int]] = [[] for _ in range(players)]
    expected: list[list[float]] = [[] for _ in range(players)]
    actual: list[list[int]] = [[] for _ in range(players)]
    rolls: list[int] = []
    pending: tuple[list[float], list[int]] | None = None
    for k, game in iter_states(replay):
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
                [expected_production(state, s) for s in range(players)],
                [sum(state.hands[s]) for s in range(players)],
            )
    return ReplayCharts(len(replay.steps), points, rolls, expected, actual)


def _x(step: int, steps: int) -> float:
    return PAD + (WIDTH - 2 * PAD) * step / max(1, steps)


def _y(value: float, top: float) -> float:
    return HEIGHT - PAD - (HEIGHT - 2 * PAD) * value / max(1e-9, top)


def _frame(kind: str, title: str, top: float, steps: int, step: int) -> list[str]:
    marker = _x(step, steps)
    return [
        f'<svg class="{kind}" viewBox="0 0 {WIDTH:.0f} {HEIGHT:.0f}" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>',
        f'<line class="axis" x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" '
        f'y2="{HEIGHT - PAD}"/>',
        f'<text class="label" x="{PAD}" y="{PAD - 6}">{escape(f"{top:.0f}")}</text>',
        f'<text class="label" x="{WIDTH - PAD}" y="{HEIGHT - 4}" text-anchor="end">step</text>',
        f'<line class="marker" x1="{marker:.1f}" y1="{PAD}" x2="{marker:.1f}" '
        f'y2="{HEIGHT - PAD}"/>',
    ]


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


def points_svg(charts: ReplayCharts, step: int) -> str:
    """Each seat's points after every step up to ``step`` (no spoilers: the x axis is
    the whole game, the lines stop at the marker)."""
    top = max([10, *(max(p) for p in charts.points if p)])
    parts = _frame("chart-points", "points over the game", top, charts.steps, step)
    xs = [_x(k, charts.steps) for k in range(min(step, charts.steps) + 1)]
    for seat, series in enumerate(charts.points):
        parts.append(_line(xs, [_y(v, top) for v in series[: len(xs)]], seat))
    return "".join(parts) + "</svg>"


def luck_svg(charts: ReplayCharts, step: int) -> str:
    """Cumulative resources from the dice (solid) against the expected (dashed), up to
    ``step``."""
    top = max([1.0, *(a[-1] for a in charts.actual if a), *(e[-1] for e in charts.expected if e)])
    parts = _frame("chart-luck", "dice luck: resources got and expected", top, charts.steps, step)
    xs = [_x(k, charts.steps) for k in charts.rolls if k <= step]
    for seat in range(len(charts.actual)):
        expected, actual = charts.expected[seat][: len(xs)], charts.actual[seat][: len(xs)]
        parts.append(_line(xs, [_y(v, top) for v in expected], seat, " expected"))
        parts.append(_line(xs, [_y(v, top) for v in actual], seat))
    return "".join(parts) + "</svg>"
