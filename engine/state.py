"""The complete, mutable game state. Rules live in ``engine.rules``; this is only data.

Ownership is held in flat lists indexed by intersection/path id (the board's graph is
static and shared), so that :meth:`GameState.copy` is a handful of list copies.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.board.layouts import BoardLayout
from engine.board.tables import Board, board_for
from engine.codegen import run
from engine.config import RulesConfig
from engine.phases import Phase
from engine.rng import GameChance
from engine.static_typing import TYPE_CHECKING
from engine.types import (
    BANK_PER_RESOURCE,
    CITIES_PER_PLAYER,
    DEV_DECK,
    ROADS_PER_PLAYER,
    SETTLEMENTS_PER_PLAYER,
)

if TYPE_CHECKING:
    from typing import Any, Final, TypeAlias

Step: TypeAlias = "tuple[int, Any, Any]"
"""One recorded step: (seat, action, chance outcome or None)."""

_Ints = tuple[int, ...]
PublicView = tuple[
    _Ints, _Ints, _Ints, _Ints, _Ints, _Ints, _Ints, _Ints, _Ints,
    int | None, int | None, _Ints, _Ints, int,
]  # fmt: skip
"""(node_owner, node_kind, edge_owner, knights, public_vp, road_len, roads_left,
settlements_left, cities_left, longest_road, largest_army, played_devs, development cards
per seat, deck size), as an observation shows them (None: no holder)."""

# How each field is copied: "same" (immutable or shared), "list" (flat list),
# "nested" (list of lists), "sets" (list of sets), "chance" (the chance streams, cloned).
_COPY: Final[dict[str, str]] = {
    "config": "same",
    "board": "same",
    "n": "same",
    "node_owner": "list",
    "node_kind": "list",
    "edge_owner": "list",
    "blocked": "list",
    "robber": "same",
    "hands": "nested",
    "bank": "list",
    "deck": "list",
    "devs": "nested",
    "devs_new": "list",
    "knights": "list",
    "played_devs": "list",
    "roads_left": "list",
    "settlements_left": "list",
    "cities_left": "list",
    "public_vp": "list",
    "road_len": "list",
    "ratios": "nested",
    "road_nodes": "sets",
    "road_edges": "nested",
    "buildable": "sets",
    "longest_road": "same",
    "largest_army": "same",
    "turn": "same",
    "current": "same",
    "decider": "same",
    "phase": "same",
    "setup_index": "same",
    "setup_node": "same",
    "dice": "same",
    "rolled": "same",
    "dev_played": "same",
    "built": "same",
    "to_discard": "list",
    "resume_phase": "same",
    "free_roads": "same",
    "offers_made": "same",
    "offer": "same",
    "responses": "list",
    "winner": "same",
    "termination": "same",
    "public_view": "same",
    "chance": "chance",
    "steps": "list",
}


class GameState:
    """All the facts of one game. Seats are ``0..n-1``; seat 0 starts."""

    __slots__ = tuple(_COPY)

    config: RulesConfig
    board: Board
    n: int
    node_owner: list[int]
    """Seat owning the building on each intersection, -1 if empty."""
    node_kind: list[int]
    """0 empty, 1 settlement, 2 city."""
    edge_owner: list[int]
    """Seat owning the road on each path, -1 if empty."""
    blocked: list[int]
    """Buildings on or next to each intersection (distance rule: 0 means buildable)."""
    robber: int
    hands: list[list[int]]
    bank: list[int]
    deck: list[int]
    """Development cards left in the deck, by kind (the order is drawn at random)."""
    devs: list[list[int]]
    """Unplayed development cards per seat, by kind (victory point cards included)."""
    devs_new: list[int]
    """Cards the player on turn bought this turn, by kind."""
    knights: list[int]
    played_devs: list[int]
    """Development cards played so far (face up, public), by kind, all seats together."""
    roads_left: list[int]
    settlements_left: list[int]
    cities_left: list[int]
    public_vp: list[int]
    """Visible points: buildings and special cards (not victory point cards)."""
    road_len: list[int]
    ratios: list[list[int]]
    """Best maritime ratio per seat and resource (4, 3 or 2)."""
    road_nodes: list[set[int]]
    """Intersections touched by each seat's roads."""
    road_edges: list[list[int]]
    buildable: list[set[int]]
    """Paths where each seat could legally build a road now (ignoring cost)."""
    longest_road: int
    largest_army: int
    turn: int
    """Turns started so far (0 during set-up)."""
    current: int
    """Seat whose turn it is."""
    decider: int
    """Seat that must decide now."""
    phase: Phase
    setup_index: int
    setup_node: int
    dice: tuple[int, int] | None
    rolled: bool
    dev_played: bool
    built: bool
    to_discard: list[int]
    resume_phase: Phase
    free_roads: int
    offers_made: int
    offer: tuple[tuple[int, ...], tuple[int, ...]] | None
    """The open domestic offer (give, get), from the proposer's side."""
    responses: list[Any]
    """Per seat: None (not yet asked/answered), "accept", "reject" or a counter (give, get)."""
    winner: int
    termination: Any
    public_view: PublicView | None
    """Cached :class:`PublicView`; set to None by every change to what it holds."""
    chance: GameChance
    """The chance streams (dice, deck, steals): never shown to any player."""
    steps: list[Step]

    @classmethod
    def new(cls, config: RulesConfig, layout: BoardLayout, chance: GameChance) -> GameState:
        s = cls.__new__(cls)
        n = config.players
        board = board_for(layout)
        s.config, s.board, s.n = config, board, n
        s.node_owner = [-1] * board.num_nodes
        s.node_kind = [0] * board.num_nodes
        s.edge_owner = [-1] * board.num_edges
        s.blocked = [0] * board.num_nodes
        s.robber = board.desert
        s.hands = [[0] * 5 for _ in range(n)]
        s.bank = [BANK_PER_RESOURCE] * 5
        s.deck = list(DEV_DECK)
        s.devs = [[0] * 5 for _ in range(n)]
        s.devs_new = [0] * 5
        s.knights = [0] * n
        s.played_devs = [0] * 5
        s.roads_left = [ROADS_PER_PLAYER] * n
        s.settlements_left = [SETTLEMENTS_PER_PLAYER] * n
        s.cities_left = [CITIES_PER_PLAYER] * n
        s.public_vp = [0] * n
        s.road_len = [0] * n
        s.ratios = [[4] * 5 for _ in range(n)]
        s.road_nodes = [set() for _ in range(n)]
        s.road_edges = [[] for _ in range(n)]
        s.buildable = [set() for _ in range(n)]
        s.longest_road = -1
        s.largest_army = -1
        s.turn = 0
        s.current = 0
        s.decider = 0
        s.phase = Phase.SETUP_SETTLEMENT
        s.setup_index = 0
        s.setup_node = -1
        s.dice = None
        s.rolled = False
        s.dev_played = False
        s.built = False
        s.to_discard = [0] * n
        s.resume_phase = Phase.MAIN
        s.free_roads = 0
        s.offers_made = 0
        s.offer = None
        s.responses = [None] * n
        s.winner = -1
        s.termination = None
        s.public_view = None
        s.chance = chance
        s.steps = []
        return s

    def copy(self) -> GameState:
        """An independent copy (its own chance streams in the same positions)."""
        return _copy_state(self)

    # Small derived facts used by several rule modules.

    def view_of_public(self) -> PublicView:
        """The slowly changing public facts as immutable values, rebuilt only after a
        build, a development card bought or played, or a rebuild of derived caches."""
        view = self.public_view
        if view is None:
            lr, la = self.longest_road, self.largest_army
            view = (
                tuple(self.node_owner),
                tuple(self.node_kind),
                tuple(self.edge_owner),
                tuple(self.knights),
                tuple(self.public_vp),
                tuple(self.road_len),
                tuple(self.roads_left),
                tuple(self.settlements_left),
                tuple(self.cities_left),
                None if lr < 0 else lr,
                None if la < 0 else la,
                tuple(self.played_devs),
                tuple(map(sum, self.devs)),
                sum(self.deck),
            )
            self.public_view = view
        return view

    def total_vp(self, seat: int) -> int:
        return self.public_vp[seat] + self.devs[seat][4]


def _make_copier() -> Callable[[GameState], GameState]:
    """Generate ``copy`` from the ``_COPY`` table: one assignment per field, no loop."""
    expressions = {
        "same": "s.{0}",
        "list": "s.{0}[:]",
        "nested": "[x[:] for x in s.{0}]",
        "sets": "[set(x) for x in s.{0}]",
        "chance": "s.{0}.clone()",
    }
    lines = ["def copy_state(s):", "    new = new_state(GameState)"]
    lines += [f"    new.{name} = {expressions[how].format(name)}" for name, how in _COPY.items()]
    lines.append("    return new")
    namespace: dict[str, Any] = {
        "GameState": GameState,
        "new_state": GameState.__new__,
    }
    run("\n".join(lines), namespace)  # code built from the constant table above
    copier: Callable[[GameState], GameState] = namespace["copy_state"]
    return copier


_copy_state = _make_copier()
