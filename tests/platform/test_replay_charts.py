"""The replay viewer's charts from real games (no database): points over the game as
each view may see them, and dice luck, checked against the engine's states computed
separately and against hand arithmetic at a concrete position."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from functools import cache

from arena_runner import InProcessDriver, play_match
from bots.registry import load_player_class
from catan_arena.web.replay_charts import (
    CHANCE,
    LEFT,
    RIGHT,
    WIDTH,
    chart_lines,
    expected_production,
    luck_svg,
    points_svg,
    replay_charts,
    ticks,
)
from engine import RulesConfig
from engine.board.topology import standard_topology
from engine.replay import Replay, iter_states, state_at


@cache
def game(seed: str) -> Replay:
    player = load_player_class("heuristic")
    drivers = [InProcessDriver(player, name=f"h{i}") for i in range(4)]
    return play_match(RulesConfig(), seed, drivers, one_cpu=False).replay


def test_points_follow_the_game_in_every_view() -> None:
    replay = game("charts-1")
    everything = replay_charts(replay)
    for k in range(0, len(replay.steps) + 1, 97):
        state = state_at(replay, k).state
        for seat in range(4):
            assert everything.points[seat][k] == state.public_vp[seat] + state.devs[seat][4]
    final = [row[-1] for row in everything.points]
    assert final == list(replay.result["points"])  # type: ignore[index]


def test_hidden_victory_cards_count_only_where_the_view_may_see_them() -> None:
    for seed in (f"vp-{i}" for i in range(12)):
        replay = game(seed)
        last = state_at(replay, len(replay.steps)).state
        holders = [s for s in range(4) if last.devs[s][4]]
        if holders:
            break
    else:
        raise AssertionError("no game with a victory-point card in 12 seeds")
    holder, other = holders[0], (holders[0] + 1) % 4
    end = len(replay.steps)
    cards = last.devs[holder][4]
    assert replay_charts(replay, None).points[holder][end] == last.public_vp[holder] + cards
    assert replay_charts(replay, holder).points[holder][end] == last.public_vp[holder] + cards
    assert replay_charts(replay, other).points[holder][end] == last.public_vp[holder]


def test_expected_production_by_hand_at_a_concrete_position() -> None:
    replay = game("charts-2")
    topo = standard_topology()
    k = next(i for i, s in enumerate(replay.steps) if s.action.kind == "roll_dice")
    state = state_at(replay, k).state  # the first roll: two settlements each
    numbers = state_at(replay, k).layout.numbers
    for seat in range(4):
        by_hand = 0.0
        for node, owner in enumerate(state.node_owner):
            if owner == seat:
                for h in topo.node_hexes[node]:
                    if h != state.robber and numbers[h]:
                        by_hand += (6 - abs(7 - numbers[h])) / 36 * state.node_kind[node]
        assert abs(expected_production(state, seat) - by_hand) < 1e-9
    assert CHANCE[7] == 6 / 36 and abs(sum(CHANCE.values()) - 1) < 1e-12


def test_the_robber_hex_yields_nothing() -> None:
    replay = game("charts-2")
    k = next(i for i, s in enumerate(replay.steps) if s.action.kind == "roll_dice")
    position = state_at(replay, k)
    state, numbers = copy.deepcopy(position.state), position.layout.numbers
    topo = standard_topology()
    seat = 0
    node = state.node_owner.index(seat)
    hexes = [h for h in topo.node_hexes[node] if numbers[h]]
    before = expected_production(state, seat)
    state.robber = hexes[0]
    number = numbers[hexes[0]]
    lost = (
        (6 - abs(7 - number))
        / 36
        * sum(state.node_kind[n] for n in topo.hex_nodes[hexes[0]] if state.node_owner[n] == seat)
    )
    assert abs(before - expected_production(state, seat) - lost) < 1e-9 and lost > 0


def test_dice_luck_adds_what_each_roll_paid() -> None:
    replay = game("charts-3")
    charts = replay_charts(replay)
    paid = [0] * 4
    before: list[int] | None = None
    sevens = 0
    for k, g in iter_states(replay):
        hands = [sum(h) for h in g.state.hands]
        if before is not None:
            gained = [max(0, a - b) for a, b in zip(hands, before, strict=True)]
            paid = [p + x for p, x in zip(paid, gained, strict=True)]
            if sum(g.state.dice or (0,)) == 7:
                sevens += 1
                assert gained == [0, 0, 0, 0]  # a 7 pays nobody
            before = None
        if k < len(replay.steps) and replay.steps[k].action.kind == "roll_dice":
            before = hands
    assert [got for got, _ in charts.totals()] == paid and sevens > 0
    assert len(charts.rolls) == sum(s.action.kind == "roll_dice" for s in replay.steps)
    assert all(e[-1] > 0 for e in charts.expected)


def test_the_svgs_parse_with_a_line_per_seat_and_the_marker_at_the_step() -> None:
    replay = game("charts-1")
    charts = replay_charts(replay)
    step = len(replay.steps) // 2
    points, luck = ET.fromstring(points_svg(charts, step)), ET.fromstring(luck_svg(charts, step))
    ns = "{http://www.w3.org/2000/svg}"
    lines = lambda svg: svg.findall("polyline") + svg.findall(f"{ns}polyline")  # noqa: E731
    assert len(lines(points)) == 4 and len(lines(luck)) == 8
    marker = next(e for e in points.iter() if e.get("class") == "marker")
    expected_x = LEFT + (WIDTH - LEFT - RIGHT) * step / len(replay.steps)
    assert abs(float(marker.get("x1", "0")) - expected_x) < 0.1
    assert all(len(line.get("points", "").split()) <= 301 for line in lines(points))
    last_x = max(float(xy.split(",")[0]) for xy in lines(points)[0].get("points", "").split())
    assert abs(last_x - expected_x) < 0.1  # no spoilers: the lines stop at the step
    early = charts.totals(charts.rolls[0])
    assert early != charts.totals() and len(early) == 4


def test_the_axes_have_round_ticks_with_labels() -> None:
    assert ticks(10) == [0, 2, 4, 6, 8, 10]
    assert ticks(57.3) == [0, 20, 40]
    assert ticks(812, 4) == [0, 250, 500, 750]
    svg = ET.fromstring(points_svg(replay_charts(game("charts-1")), 10))
    labels = [e.text for e in svg.iter() if e.get("class") == "label"]
    assert {"0", "2", "10", "step", "points"} <= set(labels)
    assert sum(e.get("class") == "tick" for e in svg.iter()) >= 3


def test_the_browser_gets_the_same_lines_as_the_svg() -> None:
    """chart_lines (the browser's data) and the server's SVG put each point at the same
    coordinates: the browser's lines at a step are the SVG's."""
    charts = replay_charts(game("charts-1"))
    data = chart_lines(charts)
    step = 40  # short enough that the SVG keeps every point
    points = ET.fromstring(points_svg(charts, step))
    luck = ET.fromstring(luck_svg(charts, step))
    rolls = sum(1 for k in charts.rolls if k <= step)
    for seat in range(4):
        drawn = next(e for e in points.iter() if e.get("data-seat") == str(seat)).get("points")
        xs, ys = data["x_points"][: step + 1], data["points"][seat][: step + 1]
        assert drawn == " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True))
        got = [e for e in luck.iter() if e.get("data-seat") == str(seat)][1].get("points")
        xs, ys = data["x_luck"][:rolls], data["got"][seat][:rolls]
        assert got == " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True))
