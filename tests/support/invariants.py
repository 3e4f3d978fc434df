"""From-scratch checks of a game's state, independent of the engine's own bookkeeping.

:func:`check_invariants` recomputes every derived fact of a :class:`~engine.game.Game`
(card and piece accounting, points, road lengths, the special cards, cached road sites,
maritime ratios, ...) from the board, the hands and the step log, and raises
``AssertionError`` with a precise message on the first disagreement.

Road connectivity is checked in two ways. Statically, every road is joined to one of its
owner's buildings through its owner's roads. Historically (replaying the build steps of
``state.steps``), every road touched its owner's network *when it was built*, where an
opponent's building cuts passage. The static check cannot honour cuts: an opponent may
legally settle in the middle of an existing road, leaving its far part cut off.

Expensive recomputations (longest trails, road sites, ratios) depend only on the pieces
on the board, so they are memoised on a signature of the board; the step log is tallied
incrementally per log. Both caches only skip recomputing, never comparing. The tally
also replays who should hold Longest Road and Largest Army, build by build and knight by
knight, so a card moved on a tie is caught even when the end state looks plausible.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

import networkx as nx

from engine import actions as A
from engine.game import Game
from engine.phases import Phase, Termination
from engine.state import GameState
from engine.types import Bag

RESOURCE_TOTAL: Final = 19
DEV_TOTALS: Final = {0: 14, 1: 2, 2: 2, 3: 2, 4: 5}
"""The base game's 25 development cards: knights, road building, plenty, monopoly, VP."""
PIECES: Final = {"roads": 15, "settlements": 5, "cities": 4}
LONGEST_ROAD_MIN: Final = 5
LARGEST_ARMY_MIN: Final = 3
_PROGRESS: Final = {A.PlayRoadBuilding: 1, A.PlayYearOfPlenty: 2, A.PlayMonopoly: 3}
_CACHE_SIZE: Final = 4096


# --- the board graph, read straight from the topology's networkx graph ---------------------


@dataclass(frozen=True)
class _Graph:
    """Adjacency of the board as plain dicts, derived once from the networkx graph."""

    node_nbrs: dict[int, tuple[int, ...]]
    edge_ends: dict[int, tuple[int, int]]
    node_paths: dict[int, tuple[int, ...]]


_GRAPHS: dict[int, tuple[nx.Graph, _Graph]] = {}


def _graph(state: GameState) -> _Graph:
    """The board adjacency of ``state`` (computed once per topology graph)."""
    topo_graph = state.board.topology.graph
    cached = _GRAPHS.get(id(topo_graph))
    if cached is not None and cached[0] is topo_graph:
        return cached[1]
    node_nbrs = {v: tuple(sorted(topo_graph.neighbors(v))) for v in topo_graph.nodes}
    edge_ends = {data["id"]: (a, b) for a, b, data in topo_graph.edges(data=True)}
    node_paths = {
        v: tuple(sorted(topo_graph.edges[v, w]["id"] for w in node_nbrs[v])) for v in node_nbrs
    }
    graph = _Graph(node_nbrs, edge_ends, node_paths)
    _GRAPHS[id(topo_graph)] = (topo_graph, graph)
    return graph


# --- independent longest-trail search --------------------------------------------------------


def longest_trail(roads: Iterable[tuple[int, int]], blockers: Iterable[int]) -> int:
    """Length of the longest trail (no road used twice) over ``roads`` (pairs of
    intersections) that never passes *through* an intersection in ``blockers``.

    Each blocking intersection is split into one private copy per road ending there, so
    a trail may end at it but not continue; then every trail from every start is
    enumerated exhaustively with an explicit stack of (position, used roads).
    """
    blocked = set(blockers)
    adjacency: dict[object, list[tuple[int, object]]] = {}
    for i, (a, b) in enumerate(roads):
        u: object = (a, i) if a in blocked else a
        w: object = (b, i) if b in blocked else b
        adjacency.setdefault(u, []).append((i, w))
        adjacency.setdefault(w, []).append((i, u))
    best = 0
    stack: list[tuple[object, frozenset[int]]] = [(v, frozenset()) for v in adjacency]
    while stack:
        here, used = stack.pop()
        best = max(best, len(used))
        for i, there in adjacency[here]:
            if i not in used:
                stack.append((there, used | {i}))
    return best


_TRAILS: OrderedDict[tuple[int, tuple[int, ...], frozenset[int]], int] = OrderedDict()


def _memo_trail(g: _Graph, edges: tuple[int, ...], cuts: frozenset[int]) -> int:
    """:func:`longest_trail` of one seat's roads, memoised on (roads, cutting buildings)."""
    key = (id(g), edges, cuts)
    length = _TRAILS.get(key)
    if length is None:
        length = longest_trail([g.edge_ends[e] for e in edges], cuts)
        _TRAILS[key] = length
        if len(_TRAILS) > _CACHE_SIZE:
            _TRAILS.popitem(last=False)
    return length


# --- board-derived facts (memoised on the board signature) ---------------------------------


@dataclass(frozen=True)
class _BoardFacts:
    board: object
    road_len: tuple[int, ...]
    buildable: tuple[frozenset[int], ...]
    ratios: tuple[tuple[int, ...], ...]
    road_nodes: tuple[frozenset[int], ...]
    road_edges: tuple[tuple[int, ...], ...]
    blocked: tuple[int, ...]
    pieces: tuple[tuple[int, int, int], ...]
    """Roads, settlements and cities on the board per seat."""
    building_points: tuple[int, ...]
    problems: tuple[str, ...]


_FACTS: OrderedDict[tuple[Any, ...], _BoardFacts] = OrderedDict()


def _board_facts(state: GameState) -> _BoardFacts:
    """The board facts of ``state``, memoised on its pieces."""
    key = (
        id(state.board),
        state.n,
        tuple(state.node_owner),
        tuple(state.node_kind),
        tuple(state.edge_owner),
    )
    facts = _FACTS.get(key)
    if facts is None or facts.board is not state.board:
        facts = _compute_board_facts(state)
        _FACTS[key] = facts
        if len(_FACTS) > _CACHE_SIZE:
            _FACTS.popitem(last=False)
    return facts


def _compute_board_facts(s: GameState) -> _BoardFacts:
    """Recompute everything that depends only on the pieces on the board."""
    g = _graph(s)
    owner, kind, edge_owner = s.node_owner, s.node_kind, s.edge_owner
    problems: list[str] = []

    # Distance rule and the engine's "blocked" counters.
    blocked = []
    for v, nbrs in g.node_nbrs.items():
        if owner[v] != -1:
            for w in nbrs:
                if owner[w] != -1:
                    problems.append(f"distance rule broken: buildings on adjacent {v} and {w}")
        blocked.append(int(owner[v] != -1) + sum(owner[w] != -1 for w in nbrs))
    for v in range(len(owner)):
        if (owner[v] == -1) != (kind[v] == 0) or kind[v] not in (0, 1, 2):
            problems.append(f"intersection {v}: owner {owner[v]} with kind {kind[v]}")

    road_owners: dict[int, set[int]] = {v: set() for v in g.node_nbrs}
    for e, (a, b) in g.edge_ends.items():
        if edge_owner[e] != -1:
            road_owners[a].add(edge_owner[e])
            road_owners[b].add(edge_owner[e])

    road_len, buildable, road_nodes, road_edges, ratios = [], [], [], [], []
    pieces, building_points = [], []
    for p in range(s.n):
        mine = tuple(sorted(e for e in g.edge_ends if edge_owner[e] == p))
        settlements = sum(1 for v in g.node_nbrs if owner[v] == p and kind[v] == 1)
        cities = sum(1 for v in g.node_nbrs if owner[v] == p and kind[v] == 2)
        pieces.append((len(mine), settlements, cities))
        building_points.append(settlements + 2 * cities)
        ends = [g.edge_ends[e] for e in mine]
        touched = frozenset(v for pair in ends for v in pair)
        cuts = frozenset(v for v in touched if owner[v] not in (-1, p))
        road_len.append(_memo_trail(g, mine, cuts))
        road_edges.append(mine)
        road_nodes.append(touched)

        # Static connectivity: every road joins one of p's buildings through p's roads.
        homes = [v for v in g.node_nbrs if owner[v] == p]
        reached = set(homes)
        frontier = list(homes)
        while frontier:
            v = frontier.pop()
            for e in g.node_paths[v]:
                if edge_owner[e] == p:
                    for w in g.edge_ends[e]:
                        if w not in reached:
                            reached.add(w)
                            frontier.append(w)
        for e, (a, b) in zip(mine, ends, strict=True):
            if a not in reached or b not in reached:
                problems.append(f"seat {p}'s road {e} is not joined to any of its buildings")

        # Road sites: an empty path with an end at p's building, or at an empty
        # intersection where one of p's roads ends.
        sites: set[int] = set()
        for x, paths in g.node_paths.items():
            if owner[x] == p or (owner[x] == -1 and p in road_owners[x]):
                sites.update(e for e in paths if edge_owner[e] == -1)
        buildable.append(frozenset(sites))

        # Maritime ratios from the harbors p has built on.
        best = [4] * 5
        topo = s.board.topology
        for site_edge, harbor in zip(topo.harbor_edges, s.board.layout.harbors, strict=True):
            if any(owner[v] == p for v in g.edge_ends[site_edge]):
                if harbor is None:
                    best = [min(r, 3) for r in best]
                else:
                    best[int(harbor)] = 2
        ratios.append(tuple(best))
    return _BoardFacts(
        board=s.board,
        road_len=tuple(road_len),
        buildable=tuple(buildable),
        ratios=tuple(ratios),
        road_nodes=tuple(road_nodes),
        road_edges=tuple(road_edges),
        blocked=tuple(blocked),
        pieces=tuple(pieces),
        building_points=tuple(building_points),
        problems=tuple(problems),
    )


# --- the step log, tallied incrementally -------------------------------------------------


@dataclass
class _Tally:
    """Facts accumulated from a prefix of a step log (and a replay of its build steps)."""

    steps: list[Any]
    n: int
    num_nodes: int
    num_edges: int
    pos: int = 0
    last: object = None
    bought: list[list[int]] = field(default_factory=list)
    played: list[list[int]] = field(default_factory=list)
    bought_this_turn: list[int] = field(default_factory=lambda: [0] * 5)
    played_this_turn: bool = False
    node_owner: list[int] = field(default_factory=list)
    node_kind: list[int] = field(default_factory=list)
    edge_owner: list[int] = field(default_factory=list)
    last_settled: int = -1
    knights: list[int] = field(default_factory=list)
    army: int = -1
    """Largest Army holder by the rules, replayed knight by knight."""
    road: int = -1
    """Longest Road holder by the rules, replayed build by build."""

    def __post_init__(self) -> None:
        self.knights = [0] * self.n
        self.bought = [[0] * 5 for _ in range(self.n)]
        self.played = [[0] * 5 for _ in range(self.n)]
        self.node_owner = [-1] * self.num_nodes
        self.node_kind = [0] * self.num_nodes
        self.edge_owner = [-1] * self.num_edges


_TALLIES: OrderedDict[int, _Tally] = OrderedDict()


def _fits(tally: _Tally, steps: list[Any]) -> bool:
    """Whether ``steps`` extends the prefix ``tally`` has consumed (step tuples are
    fresh objects and logs only grow, so the last consumed step identifies the prefix;
    a copied game's log shares them)."""
    pos = tally.pos
    return pos <= len(steps) and (pos == 0 or steps[pos - 1] is tally.last)


def _tally(s: GameState) -> _Tally:
    """The tally of ``s.steps``, brought up to date incrementally."""
    steps = s.steps
    tally = _TALLIES.get(id(steps))
    if tally is not None and tally.steps is steps and _fits(tally, steps):
        _TALLIES.move_to_end(id(steps))
    else:
        tally = _Tally(steps, s.n, s.board.num_nodes, s.board.num_edges)
        # A copied game's log starts with its original's steps: resume from there.
        parents = [t for t in _TALLIES.values() if t.n == s.n and t.pos > 0 and _fits(t, steps)]
        if parents:
            parent = max(parents, key=lambda t: t.pos)
            tally.pos, tally.last = parent.pos, parent.last
            tally.bought = [row[:] for row in parent.bought]
            tally.played = [row[:] for row in parent.played]
            tally.bought_this_turn = parent.bought_this_turn[:]
            tally.played_this_turn = parent.played_this_turn
            tally.node_owner = parent.node_owner[:]
            tally.node_kind = parent.node_kind[:]
            tally.edge_owner = parent.edge_owner[:]
            tally.last_settled = parent.last_settled
            tally.knights = parent.knights[:]
            tally.army, tally.road = parent.army, parent.road
        _TALLIES[id(steps)] = tally
        if len(_TALLIES) > 64:
            _TALLIES.popitem(last=False)
    try:
        g = _graph(s)
        for i in range(tally.pos, len(steps)):
            _consume(tally, g, i, steps[i])
            tally.pos, tally.last = i + 1, steps[i]
    except Exception:
        _TALLIES.pop(id(steps), None)
        raise
    return tally


def _consume(t: _Tally, g: _Graph, i: int, step: tuple[int, Any, Any]) -> None:
    """Fold step ``i`` into the tally, checking each build against the rules then."""
    seat, action, outcome = step
    kind = type(action)
    setup = i < 4 * t.n  # set-up is exactly settlement, road, ... for 2n placements
    where = f"step {i} ({seat}: {action})"
    if kind is A.EndTurn:
        t.bought_this_turn = [0] * 5
        t.played_this_turn = False
    elif kind is A.BuyDevCard:
        assert isinstance(outcome, int) and 0 <= outcome < 5, f"{where}: drew {outcome!r}"
        t.bought[seat][outcome] += 1
        t.bought_this_turn[outcome] += 1
    elif kind is A.PlayKnight or kind in _PROGRESS:
        card = 0 if kind is A.PlayKnight else _PROGRESS[kind]
        assert not t.played_this_turn, f"{where}: a second development card in one turn"
        assert t.bought[seat][card] - t.played[seat][card] > t.bought_this_turn[card], (
            f"{where}: played a card not held since before this turn"
        )
        t.played[seat][card] += 1
        t.played_this_turn = True
        if card == 0:
            t.knights[seat] += 1
            holder = t.army
            if t.knights[seat] >= LARGEST_ARMY_MIN and (
                holder == -1 or t.knights[seat] > t.knights[holder]
            ):
                t.army = seat  # only a strictly larger army takes the card
    elif kind is A.BuildSettlement:
        v = action.node
        assert t.node_owner[v] == -1, f"{where}: intersection already built on"
        near = [w for w in g.node_nbrs[v] if t.node_owner[w] != -1]
        assert not near, f"{where}: distance rule, neighbours {near} are built on"
        if not setup:
            assert any(t.edge_owner[e] == seat for e in g.node_paths[v]), (
                f"{where}: settlement not on one of the seat's roads"
            )
        t.node_owner[v], t.node_kind[v] = seat, 1
        t.last_settled = v
        _award_longest_road(t, g)
    elif kind is A.BuildCity:
        v = action.node
        assert t.node_owner[v] == seat and t.node_kind[v] == 1, f"{where}: no own settlement"
        t.node_kind[v] = 2
    elif kind is A.BuildRoad:
        e = action.edge
        a, b = g.edge_ends[e]
        assert t.edge_owner[e] == -1, f"{where}: path already taken"
        if setup:
            assert t.last_settled in (a, b), f"{where}: set-up road away from {t.last_settled}"
        else:
            joined = any(
                t.node_owner[x] == seat
                or (
                    t.node_owner[x] == -1
                    and any(t.edge_owner[f] == seat for f in g.node_paths[x] if f != e)
                )
                for x in (a, b)
            )
            assert joined, f"{where}: road not joined to the seat's network (cuts honoured)"
        t.edge_owner[e] = seat
        _award_longest_road(t, g)


def _award_longest_road(t: _Tally, g: _Graph) -> None:
    """Move the Longest Road card after a build, by the almanac: the holder keeps it
    while no one is strictly longer (even after a break) and it has 5+; otherwise it
    goes to the single longest player with 5+, or is set aside on a tie."""
    lengths = []
    for p in range(t.n):
        mine = tuple(e for e in g.edge_ends if t.edge_owner[e] == p)
        cuts = {v for e in mine for v in g.edge_ends[e] if t.node_owner[v] not in (-1, p)}
        lengths.append(_memo_trail(g, mine, frozenset(cuts)))
    best = max(lengths)
    if t.road != -1 and lengths[t.road] >= LONGEST_ROAD_MIN and lengths[t.road] == best:
        return
    leaders = [p for p in range(t.n) if lengths[p] == best]
    t.road = leaders[0] if best >= LONGEST_ROAD_MIN and len(leaders) == 1 else -1


# --- the checks ----------------------------------------------------------------------------


def check_invariants(game: Game | GameState) -> None:
    """Assert every invariant of the game state; the message names what is wrong."""
    s = game.state if isinstance(game, Game) else game
    n = s.n
    _check_cards(s)
    tally = _tally(s)
    facts = _board_facts(s)
    _check_devs(s, tally)
    _check_pieces(s, facts)
    _check_board(s, tally, facts)
    _check_points_and_cards(s, facts, tally)
    _check_phase(s)
    _check_public_view(s)
    assert len(s.hands) == n and len(s.devs) == n, "per-seat lists have the wrong length"


def _check_public_view(s: GameState) -> None:
    """The cached public view is what the state holds now. The check leaves a fresh view
    cached, so the next check (after more steps) sees whether every change dropped it."""
    cached = s.public_view
    s.public_view = None
    fresh = s.view_of_public()
    assert cached is None or cached == fresh, f"stale public view: {cached} != {fresh}"


def _check_cards(s: GameState) -> None:
    """19 cards of each resource between the bank and the hands, none negative."""
    for r in range(5):
        held = [hand[r] for hand in s.hands]
        assert s.bank[r] >= 0 and min(held) >= 0, (
            f"negative count of resource {r}: bank {s.bank[r]}, hands {held}"
        )
        assert s.bank[r] + sum(held) == RESOURCE_TOTAL, (
            f"resource {r}: bank {s.bank[r]} + hands {held} != {RESOURCE_TOTAL}"
        )


def _check_devs(s: GameState, t: _Tally) -> None:
    """25 development cards: deck + hands + knights played + progress cards played."""
    for p in range(s.n):
        bought, played = t.bought[p], t.played[p]
        expected = [bought[k] - played[k] for k in range(5)]
        assert s.devs[p] == expected, f"seat {p} holds devs {s.devs[p]}, the log says {expected}"
        assert s.knights[p] == played[0], (
            f"seat {p} has {s.knights[p]} knights, the log shows {played[0]} played"
        )
    for k, total in DEV_TOTALS.items():
        held = [devs[k] for devs in s.devs]
        knights = sum(s.knights) if k == 0 else 0
        progress = sum(t.played[p][k] for p in range(s.n)) if k in (1, 2, 3) else 0
        assert s.deck[k] >= 0 and min(held) >= 0, f"negative development card count of kind {k}"
        assert s.deck[k] + sum(held) + knights + progress == total, (
            f"development kind {k}: deck {s.deck[k]} + hands {held} + knights {knights} "
            f"+ progress played {progress} != {total}"
        )
    if s.phase is not Phase.GAME_OVER:
        assert s.devs_new == t.bought_this_turn, (
            f"devs_new {s.devs_new} != bought this turn {t.bought_this_turn}"
        )
        assert s.dev_played == t.played_this_turn, f"dev_played is {s.dev_played}"


def _check_pieces(s: GameState, facts: _BoardFacts) -> None:
    """Piece limits, and the *_left counters against the pieces on the board."""
    for p in range(s.n):
        roads, settlements, cities = facts.pieces[p]
        for what, on_board, left in (
            ("roads", roads, s.roads_left[p]),
            ("settlements", settlements, s.settlements_left[p]),
            ("cities", cities, s.cities_left[p]),
        ):
            assert left >= 0 and on_board <= PIECES[what], f"seat {p}: {on_board} {what} built"
            assert left == PIECES[what] - on_board, (
                f"seat {p}: {what}_left is {left} with {on_board} on the board"
            )


def _check_board(s: GameState, t: _Tally, facts: _BoardFacts) -> None:
    """Board against the replayed builds, and every cached board fact recomputed."""
    assert s.node_owner == t.node_owner and s.node_kind == t.node_kind, (
        "buildings on the board differ from a replay of the build steps"
    )
    assert s.edge_owner == t.edge_owner, "roads on the board differ from a replay of the steps"
    assert not facts.problems, "; ".join(facts.problems)
    assert list(facts.blocked) == s.blocked, "blocked counters differ from the buildings"
    for p in range(s.n):
        assert s.road_len[p] == facts.road_len[p], (
            f"seat {p}: road_len {s.road_len[p]}, brute force finds {facts.road_len[p]}"
        )
        assert s.buildable[p] == facts.buildable[p], (
            f"seat {p}: buildable extra {sorted(s.buildable[p] - facts.buildable[p])}, "
            f"missing {sorted(facts.buildable[p] - s.buildable[p])}"
        )
        assert tuple(s.ratios[p]) == facts.ratios[p], (
            f"seat {p}: ratios {s.ratios[p]}, harbors give {list(facts.ratios[p])}"
        )
        assert s.road_nodes[p] == facts.road_nodes[p], f"seat {p}: road_nodes differ"
        assert tuple(sorted(s.road_edges[p])) == facts.road_edges[p], (
            f"seat {p}: road_edges {s.road_edges[p]} differ from {facts.road_edges[p]}"
        )
    assert 0 <= s.robber < s.board.num_hexes, f"robber on hex {s.robber}"


def _check_points_and_cards(s: GameState, facts: _BoardFacts, t: _Tally) -> None:
    """Longest Road / Largest Army holders and visible points, from scratch."""
    assert s.largest_army == t.army, (
        f"Largest Army with seat {s.largest_army}, the knights played give {t.army}"
    )
    assert s.longest_road == t.road, (
        f"Longest Road with seat {s.longest_road}, replaying the builds gives {t.road}"
    )
    lengths, knights = s.road_len, s.knights
    lr, la = s.longest_road, s.largest_army
    best = max(lengths)
    if lr != -1:
        assert lengths[lr] >= LONGEST_ROAD_MIN, f"Longest Road holder {lr} has {lengths[lr]}"
        assert lengths[lr] == best, f"Longest Road holder {lr} ({lengths[lr]}) < {lengths}"
    else:
        assert not (best >= LONGEST_ROAD_MIN and lengths.count(best) == 1), (
            f"Longest Road set aside but seat {lengths.index(best)} is alone longest: {lengths}"
        )
    if la != -1:
        assert knights[la] >= LARGEST_ARMY_MIN, f"Largest Army holder {la} has {knights[la]}"
        assert knights[la] == max(knights), f"Largest Army holder {la}: knights {knights}"
    else:
        assert max(knights) < LARGEST_ARMY_MIN, f"Largest Army unclaimed with knights {knights}"
    buildings = facts.building_points
    for p in range(s.n):
        points = buildings[p] + 2 * (lr == p) + 2 * (la == p)
        assert s.public_vp[p] == points, f"seat {p}: public_vp {s.public_vp[p]}, recount {points}"


def _check_phase(s: GameState) -> None:
    """Winner, termination and who decides, consistent with the phase."""
    goal = s.config.vp_to_win
    total = [s.public_vp[p] + s.devs[p][4] for p in range(s.n)]
    if s.winner != -1:
        assert s.phase is Phase.GAME_OVER and s.termination is Termination.VICTORY, (
            f"winner {s.winner} but phase {s.phase.label}, termination {s.termination}"
        )
        assert s.winner == s.current, f"seat {s.winner} won on seat {s.current}'s turn"
        assert total[s.winner] >= goal, f"winner {s.winner} has only {total[s.winner]} points"
    if s.phase is Phase.GAME_OVER:
        assert s.termination is not None, "game over without a termination"
        if s.termination is Termination.TURN_LIMIT:
            assert s.winner == -1, "a truncated game has a winner"
            assert s.turn > s.config.max_turns, f"truncated at turn {s.turn}"
        return
    assert s.termination is None, "termination set before the game is over"
    if s.turn:
        assert total[s.current] < goal, (
            f"seat {s.current} has {total[s.current]} points on its turn and has not won"
        )
        assert s.turn <= s.config.max_turns, f"turn {s.turn} beyond the cap"
    if s.phase is Phase.DISCARD:
        assert s.to_discard[s.decider] > 0, f"seat {s.decider} discards with nothing owed"
    elif s.phase is not Phase.TRADE_RESPONSE:
        assert s.decider == s.current, f"seat {s.decider} decides on seat {s.current}'s turn"
    if s.phase in (Phase.TRADE_RESPONSE, Phase.TRADE_CONFIRM):
        assert s.offer is not None, "trade phase without an offer"
    else:
        assert s.offer is None, f"an offer lingers in phase {s.phase.label}"
    if s.phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD):
        assert s.turn == 0 and len(s.steps) < 4 * s.n, "set-up after the first turn"
    else:
        assert s.turn >= 1, f"phase {s.phase.label} during set-up"


# --- a random player, shared by the property tests -----------------------------------------

BUILD_ACTIONS: Final = (
    A.BuildRoad,
    A.BuildSettlement,
    A.BuildCity,
    A.BuyDevCard,
    A.PlayKnight,
    A.PlayRoadBuilding,
    A.PlayYearOfPlenty,
    A.PlayMonopoly,
)


def random_bags(hand: list[int], rng: random.Random) -> tuple[Bag, Bag] | None:
    """A random well-formed trade for a player holding ``hand``: 1-3 held cards given for
    1-3 cards of other resources (None if the hand is empty)."""
    pool = [r for r in range(5) for _ in range(hand[r])]
    if not pool:
        return None
    give = [0] * 5
    for r in rng.sample(pool, rng.randint(1, min(3, len(pool)))):
        give[r] += 1
    others = [r for r in range(5) if not give[r]]
    get = [0] * 5
    for _ in range(rng.randint(1, 3)):
        get[rng.choice(others)] += 1
    return _bag(give), _bag(get)


def _bag(counts: list[int]) -> Bag:
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def choose_action(
    game: Game, rng: random.Random, *, trade_rate: float = 0.0, build_bias: float = 0.0
) -> A.Action:
    """A random decision: usually a uniformly random legal action; with probability
    ``trade_rate`` a random multi-card offer or counter-offer when one may be made; with
    probability ``build_bias`` a random build or development card play (a settlement
    breaking an opponent's road first)."""
    s = game.state
    legal = game.legal_actions()
    if trade_rate and rng.random() < trade_rate:
        if s.phase is Phase.MAIN and any(isinstance(a, A.ProposeTrade) for a in legal):
            bags = random_bags(s.hands[s.current], rng)
            if bags is not None:
                return A.ProposeTrade(*bags)
        elif s.phase is Phase.TRADE_RESPONSE:
            bags = random_bags(s.hands[s.decider], rng)
            if bags is not None:
                return A.CounterTrade(*bags)
    if build_bias and rng.random() < build_bias:
        builds = [a for a in legal if isinstance(a, BUILD_ACTIONS)]
        # Settling in the middle of an opponent's road is rare by chance; prefer it.
        cuts = [a for a in builds if isinstance(a, A.BuildSettlement) and _cuts(s, a.node)]
        if cuts:
            return rng.choice(cuts)
        if builds:
            return rng.choice(builds)
    return rng.choice(legal)


def _cuts(s: GameState, node: int) -> bool:
    """Whether a settlement of the player on turn at ``node`` breaks an opponent's road."""
    owners = {s.edge_owner[e] for e in s.board.node_edges[node]}
    return bool(owners - {-1, s.current}) and s.turn > 0


def play_random(
    game: Game,
    rng: random.Random,
    *,
    max_steps: int | None = None,
    trade_rate: float = 0.0,
    build_bias: float = 0.0,
    check_every: int = 0,
    checked: bool = True,
) -> int:
    """Play random decisions until the game ends (or ``max_steps``); check invariants
    every ``check_every`` steps (0: never) and at the end. Return the steps played.

    ``checked`` applies through :meth:`Game.apply`; otherwise only the custom trades are
    checked and listed actions go through :meth:`Game.apply_unchecked`.
    """
    played = 0
    while not game.is_over and (max_steps is None or played < max_steps):
        action = choose_action(game, rng, trade_rate=trade_rate, build_bias=build_bias)
        if checked or isinstance(action, (A.ProposeTrade, A.CounterTrade)):
            game.apply(action)
        else:
            game.apply_unchecked(action)
        played += 1
        assert played < 200_000, "a random game did not end"
        if check_every and played % check_every == 0:
            try:
                check_invariants(game)
            except AssertionError as exc:
                raise AssertionError(
                    f"seed {game.seed}, step {len(game.state.steps) - 1} ({action}): {exc}"
                ) from exc
    if check_every:
        check_invariants(game)
    return played


def snapshot(s: GameState) -> dict[str, Any]:
    """A frozen copy of every state field, the chance streams by their positions, but
    not the step log."""
    return {
        name: s.chance.position() if name == "chance" else _freeze(getattr(s, name))
        for name in GameState.__slots__
        if name != "steps"
    }


def _freeze(value: object) -> object:
    """Lists become tuples and sets frozensets, recursively (the state's lists are
    homogeneous, so the first element tells whether to recurse)."""
    if isinstance(value, list):
        if value and isinstance(value[0], (list, set)):
            return tuple(_freeze(v) for v in value)
        return tuple(value)
    if isinstance(value, set):
        return frozenset(value)
    return value
