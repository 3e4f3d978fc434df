"""The board: topology graph, the beginner map as printed, and variable set-ups from a seed."""

from __future__ import annotations

import runpy

import pytest

from engine import Game, RulesConfig
from engine.actions import NUM_EDGES, NUM_HEXES, NUM_NODES
from engine.board.coords import SIDE_NAMES
from engine.board.layouts import (
    _SPIRAL_FROM_TOP_LEFT,
    SPIRAL_TOKENS,
    TERRAIN_TILES,
    beginner_layout,
    variable_layout,
)
from engine.board.tables import GENERIC_HARBOR, board_for
from engine.board.topology import (
    HARBOR_SITES,
    TABLES_FILE,
    build_graph,
    standard_topology,
    tables_from_graph,
)
from engine.config import BoardSetup
from engine.errors import ConfigError
from engine.rng import ChanceStream, game_secret
from engine.types import Resource, Terrain

T = standard_topology()


def test_topology_counts_and_structure() -> None:
    assert (T.num_hexes, T.num_nodes, T.num_edges) == (19, 54, 72)
    assert all(len(set(nodes)) == 6 for nodes in T.hex_nodes)
    assert all(len(set(edges)) == 6 for edges in T.hex_edges)
    assert sorted(len(hs) for hs in T.node_hexes).count(3) == 24  # inland intersections
    assert len(T.coast) == 30 and len(set(T.coast)) == 30
    for h in range(19):
        for k, e in enumerate(T.hex_edges[h]):
            a, b = T.edge_nodes[e]
            assert {a, b} == {T.hex_nodes[h][k], T.hex_nodes[h][(k + 1) % 6]}
            assert T.edge_between(a, b) == e
    for node in range(54):
        for other in T.node_neighbours[node]:
            assert T.graph.has_edge(node, other)


def test_the_action_tables_are_sized_by_the_graph() -> None:
    """``engine.actions``' board sizes (the one definition the codec, the observation's
    JSON and the Gym encoding import) are the graph's."""
    assert (T.num_hexes, T.num_nodes, T.num_edges) == (NUM_HEXES, NUM_NODES, NUM_EDGES)


def test_checked_in_tables_are_derived_from_the_graph() -> None:
    derived = tables_from_graph(build_graph())
    assert T.tables() == derived.tables()
    checked_in = runpy.run_path(str(TABLES_FILE))["TABLES"]
    assert checked_in == derived.tables(), (
        "run `python -m engine.board` to regenerate standard_tables.py"
    )


def test_coast_is_a_closed_clockwise_ring() -> None:
    ring = T.coast
    for e, f in zip(ring, ring[1:] + ring[:1], strict=True):
        assert set(T.edge_nodes[e]) & set(T.edge_nodes[f]), (e, f)


def test_nine_harbor_sites_sit_on_the_coast_in_the_frame_pattern() -> None:
    positions = sorted(T.coast.index(e) for e in T.harbor_edges)
    gaps = [(b - a) % 30 for a, b in zip(positions, positions[1:] + positions[:1], strict=True)]
    assert sorted(gaps) == [3] * 6 + [4] * 3
    assert len(HARBOR_SITES) == 9


def test_beginner_map_exactly_as_printed() -> None:
    layout = beginner_layout()
    rows = [(0, 3), (3, 7), (7, 12), (12, 16), (16, 19)]
    printed_numbers = [[10, 2, 9], [12, 6, 4, 10], [9, 11, 0, 3, 8], [8, 3, 4, 5], [5, 6, 11]]
    assert [list(layout.numbers[a:b]) for a, b in rows] == printed_numbers
    m, p, f, a, h, d = (
        Terrain.MOUNTAINS,
        Terrain.PASTURE,
        Terrain.FOREST,
        Terrain.FIELDS,
        Terrain.HILLS,
        Terrain.DESERT,
    )
    printed_terrain = [[m, p, f], [a, h, p, h], [a, f, d, f, m], [f, m, a, p], [h, a, p]]
    assert [list(layout.terrains[a:b]) for a, b in rows] == printed_terrain
    # Harbors, clockwise from the top-left: (hex, side) -> kind.
    expected = {
        (0, "NW"): None,
        (1, "NE"): Resource.GRAIN,
        (6, "NE"): Resource.ORE,
        (11, "E"): None,
        (15, "SE"): Resource.WOOL,
        (17, "SE"): None,
        (16, "SW"): None,
        (12, "W"): Resource.BRICK,
        (3, "W"): Resource.LUMBER,
    }
    got = {
        (h, SIDE_NAMES[side]): kind
        for (h, side), kind in zip(HARBOR_SITES, layout.harbors, strict=True)
    }
    assert got == expected


def test_harbor_intersections_get_their_ratio() -> None:
    board = board_for(beginner_layout())
    ore_site = T.hex_edges[6][0]  # NE side of the Hills-10 hex: the 2:1 ore harbor
    for node in T.edge_nodes[ore_site]:
        assert board.node_harbor[node] == Resource.ORE
        assert board.graph.nodes[node]["harbor"] == Resource.ORE
    generic_site = T.hex_edges[0][5]
    for node in T.edge_nodes[generic_site]:
        assert board.node_harbor[node] == GENERIC_HARBOR
    assert sum(1 for h in board.node_harbor if h != -1) == 18


def test_robber_starts_on_the_desert() -> None:
    for seed in range(20):
        game = Game.new(RulesConfig(), seed)
        assert game.layout.terrains[game.state.robber] is Terrain.DESERT
        assert game.layout.numbers[game.state.robber] == 0


def test_variable_boards_come_from_the_seed() -> None:
    assert Game.new(RulesConfig(), 5).layout == Game.new(RulesConfig(), 5).layout
    layouts = {Game.new(RulesConfig(), seed).layout for seed in range(30)}
    assert len(layouts) == 30
    for layout in layouts:
        assert sorted(layout.terrains) == sorted(TERRAIN_TILES)
        assert sorted(n for n in layout.numbers if n) == sorted(SPIRAL_TOKENS)
    harbor_kinds = {layout.harbors for layout in layouts}
    assert len(harbor_kinds) > 20


def test_spiral_numbers_follow_the_letters_skipping_the_desert() -> None:
    index = {cell: i for i, cell in enumerate(T.hex_cells)}
    for seed in range(30):
        layout = variable_layout(ChanceStream.derive(game_secret(seed), "board"))
        matched = False
        for corner in range(6):
            cells = list(_SPIRAL_FROM_TOP_LEFT)
            for _ in range(corner):
                cells = [(-r, q + r) for q, r in cells]
            order = [index[c] for c in cells if layout.numbers[index[c]]]
            if [layout.numbers[h] for h in order] == list(SPIRAL_TOKENS):
                matched = True
        assert matched, f"seed {seed}: tokens are not in spiral order from any corner"


def test_random_numbers_never_put_red_numbers_side_by_side() -> None:
    for seed in range(200):
        layout = variable_layout(
            ChanceStream.derive(game_secret(seed), "board"), random_numbers=True
        )
        for h, number in enumerate(layout.numbers):
            if number in (6, 8):
                assert all(layout.numbers[g] not in (6, 8) for g in T.hex_neighbours[h])


def test_board_setup_option_selects_the_layout() -> None:
    assert Game.new(RulesConfig(board=BoardSetup.BEGINNER), 9).layout == beginner_layout()


def test_layouts_reject_impossible_boards() -> None:
    good = beginner_layout()
    with pytest.raises(ConfigError):
        type(good)((*good.terrains[:-1], Terrain.HILLS), good.numbers, good.harbors)
    with pytest.raises(ConfigError):
        type(good)(good.terrains, (*good.numbers[:-1], 7), good.harbors)
    with pytest.raises(ConfigError):
        type(good)(good.terrains, good.numbers, (None,) * 9)
