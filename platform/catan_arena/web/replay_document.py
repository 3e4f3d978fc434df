"""What the browser's replay viewer loads once: every step of a game as one viewer may
see it, so stepping, scrubbing and playing draw in place without asking the server.

Only what that viewer may see goes in: a seat's view holds that seat's hand and
victory-point cards and the others' counts; the all-seeing view every hand; the live
view (``public``) no hand at all. Never the seed, the deck or what a steal took. The
board's places and markup come from :mod:`.board_svg`, the chart lines from
:mod:`.replay_charts`, the words from :mod:`.replay_view`: the server's first paint
and the browser draw from the same facts.
"""

from __future__ import annotations

from typing import Any

from catan_arena.web import board_svg, replay_charts
from catan_arena.web.replay_view import BUILDS, describe, rolled_number, seat_names
from engine.replay import Replay, iter_states
from engine.types import Resource

ROAD, SETTLEMENT, CITY = 0, 1, 2
"""The kinds of piece in a frame's ``p`` (a node's kind is the engine's 1 or 2)."""


def document(replay: Replay, view: int | None = None, public: bool = False) -> dict[str, Any]:
    """The viewer's data for ``replay`` seen by all (``view`` None), by seat ``view``,
    or with public information only (``public``). JSON-ready:

    - ``names``, ``resources`` (a hand's order), ``steps``, ``geometry``
      (:func:`board_svg.geometry`), ``charts`` (:func:`replay_charts.chart_lines`,
      None for the live view);
    - ``jumps``: the steps after each turn's end, each 7 and each build (ascending);
    - ``frames[k]`` after k steps: ``w`` words, ``d`` dice or None, ``r`` the robber's
      hex, ``p`` pieces placed by the step ([kind, node or edge, seat]), ``l`` the last
      move (:func:`board_svg.last_move`), ``n`` the number rolled, ``s`` per seat
      [points, cards, development cards, knights, Longest Road, Largest Army], ``h``
      per seat the hand by resource, or None where hidden.
    """
    names = seat_names(replay)
    players = replay.config.players
    frames: list[dict[str, Any]] = []
    edges: list[int] = []
    nodes: list[tuple[int, int]] = []
    for k, game in iter_states(replay, checked=False):  # stored by the platform
        state = game.state
        step = replay.steps[k - 1] if k else None
        placed: list[list[int]] = []
        for edge, owner in enumerate(state.edge_owner):
            if owner >= 0 and (not edges or edges[edge] != owner):
                placed.append([ROAD, edge, owner])
        for node, here in enumerate(zip(state.node_owner, state.node_kind, strict=True)):
            if here[0] >= 0 and (not nodes or nodes[node] != here):
                placed.append([here[1], node, here[0]])
        edges = list(state.edge_owner)
        nodes = list(zip(state.node_owner, state.node_kind, strict=True))
        panels, hands = [], []
        for seat in range(players):
            sees = not public and (view is None or view == seat)
            hidden_vp = state.devs[seat][4] if sees else 0
            panels.append([
                int(state.public_vp[seat] + hidden_vp), sum(state.hands[seat]),
                sum(state.devs[seat]), state.knights[seat],
                int(state.longest_road == seat), int(state.largest_army == seat),
            ])  # fmt: skip
            hands.append(list(state.hands[seat]) if sees else None)
        frames.append({
            "w": describe(step, names) if step else "The board is set.",
            "d": list(state.dice) if state.dice else None,
            "r": state.robber, "p": placed, "l": board_svg.last_move(step),
            "n": rolled_number(step), "s": panels, "h": hands,
        })  # fmt: skip
    steps = replay.steps
    return {
        "names": names,
        "resources": [r.label for r in Resource],
        "steps": len(steps),
        "geometry": board_svg.geometry(),
        "charts": None
        if public
        else replay_charts.chart_lines(replay_charts.replay_charts(replay, view)),
        "jumps": {
            "turn": [k + 1 for k, s in enumerate(steps) if s.action.kind == "end_turn"],
            "seven": [k + 1 for k, s in enumerate(steps) if rolled_number(s) == 7],
            "build": [k + 1 for k, s in enumerate(steps) if s.action.kind in BUILDS],
        },
        "frames": frames,
    }
