"""The replay viewer's data for the browser (no database): each step as the engine has
it, only what the viewer may see, and the board drawn from the same templates as the
server's SVG."""

from __future__ import annotations

from functools import cache

import orjson

from arena_runner import InProcessDriver, play_match
from bots.registry import load_player_class
from catan_arena.web.board_svg import fill, geometry, pieces_svg
from catan_arena.web.replay_document import document
from catan_arena.web.replay_view import frame
from engine import RulesConfig
from engine.replay import Replay, iter_states


@cache
def game(seed: str = "document-1") -> Replay:
    player = load_player_class("heuristic")
    drivers = [InProcessDriver(player, name=f"h{i}") for i in range(4)]
    return play_match(RulesConfig(), seed, drivers, one_cpu=False).replay


def rebuilt_pieces(frames: list[dict], k: int) -> str:
    """The pieces after k steps from the frames' placements, drawn as the browser does
    (viewer.js: roads by edge, then buildings by node, from geometry's templates)."""
    shape = geometry()
    edges: dict[int, int] = {}
    nodes: dict[int, tuple[int, int]] = {}
    for frame_ in frames[: k + 1]:
        for kind, where, seat in frame_["p"]:
            if kind == 0:
                edges[where] = seat
            else:
                nodes[where] = (seat, kind)
    parts = []
    for edge in sorted(edges):
        values = shape["edges"][edge] | {
            "seat": str(edges[edge]),
            "colour": shape["colours"][edges[edge]],
        }
        parts.append(fill(shape["templates"]["road"], values))
    for node in sorted(nodes):
        seat, kind = nodes[node]
        values = shape["nodes"][node] | {"seat": str(seat), "colour": shape["colours"][seat]}
        parts.append(fill(shape["templates"]["city" if kind == 2 else "settlement"], values))
    return "".join(parts)


def test_every_step_matches_the_engine_and_the_server_drawing() -> None:
    replay = game()
    data = document(replay)
    assert data["steps"] == len(replay.steps) == len(data["frames"]) - 1
    for k, state_game in iter_states(replay):
        state, shown = state_game.state, data["frames"][k]
        assert shown["r"] == state.robber and shown["h"] == [list(h) for h in state.hands]
        assert [s[0] for s in shown["s"]] == [
            state.public_vp[i] + state.devs[i][4] for i in range(4)
        ]
        if k % 50 == 0 or k == len(replay.steps):
            pieces = pieces_svg(state.edge_owner, state.node_owner, state.node_kind)
            assert rebuilt_pieces(data["frames"], k) == pieces
            server = frame(replay, k)
            assert f'<g id="pieces">{pieces}</g>' in server.svg
            assert shown["w"] == server.event


def test_a_seat_sees_its_own_hand_only_and_nobody_gets_the_seed() -> None:
    replay = game()
    everything = document(replay)
    assert any(f["h"][2] != [0] * 5 for f in everything["frames"])  # control: hands shown
    for seat in range(4):
        seen = document(replay, seat)
        for shown, full in zip(seen["frames"], everything["frames"], strict=True):
            assert shown["h"][seat] == full["h"][seat]
            assert all(shown["h"][other] is None for other in range(4) if other != seat)
        text = orjson.dumps(seen).decode()
        assert "seed" not in seen and str(replay.seed) not in text
    public = document(replay, public=True)
    assert all(h is None for f in public["frames"] for h in f["h"])


def test_hidden_victory_cards_count_only_for_their_holder() -> None:
    for seed in (f"document-vp-{i}" for i in range(12)):
        replay = game(seed)
        last = list(iter_states(replay))[-1][1].state
        holders = [s for s in range(4) if last.devs[s][4]]
        if holders:
            break
    else:
        raise AssertionError("no game with a victory-point card in 12 seeds")
    holder, other = holders[0], (holders[0] + 1) % 4
    public = last.public_vp[holder]
    assert document(replay, holder)["frames"][-1]["s"][holder][0] > public
    assert document(replay, other)["frames"][-1]["s"][holder][0] == public
