"""What one seat may know: its own cards plus everything public.

:func:`observe` builds an :class:`Observation` for a seat (or, with ``seat=None``, for a
spectator: no private cards). It never exposes another seat's hand, development cards,
the deck order or the random generator. A stolen card's kind is shown only to the thief
and the victim; a bought development card only to its buyer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from engine import actions as A
from engine.actions import Action
from engine.board.layouts import BoardLayout
from engine.codegen import run
from engine.config import RulesConfig
from engine.phases import Phase
from engine.state import GameState, Step
from engine.static_typing import TYPE_CHECKING, overload
from engine.types import DevCard, Resource
from engine.valueclass import value_class

if TYPE_CHECKING:
    from typing import Any, Final


@value_class
class Clock:
    """Thinking time for the current decision, set by the match runner (seconds).

    ``decision`` is the CPU budget for this decision; ``bank`` the per-game overage time
    left, used once a decision runs past its budget. A bot that exceeds both is timed out.
    ``game``, when set, is the wall-clock time the seat has left for the rest of the game
    (the sum of its decisions' wall time may not exceed the game's budget).
    """

    decision: float
    bank: float
    game: float | None = None

    def to_dict(self) -> dict[str, float]:
        data = {"decision": self.decision, "bank": self.bank}
        if self.game is not None:
            data["game"] = self.game
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Clock:
        if not isinstance(data, dict):
            raise ValueError("clock must be an object")
        decision, bank, game = data.get("decision"), data.get("bank"), data.get("game")
        if not isinstance(decision, (int, float)) or not isinstance(bank, (int, float)):
            raise ValueError("clock needs numeric 'decision' and 'bank'")
        if game is not None and not isinstance(game, (int, float)):
            raise ValueError("clock 'game' must be numeric")
        return cls(float(decision), float(bank), None if game is None else float(game))


def visible_outcome(step: Step, viewer: int | None) -> Any:
    """The chance outcome of ``step`` as ``viewer`` may see it (None = spectator,
    -1 = all-seeing)."""
    seat, action, outcome = step
    if outcome is None or viewer == -1:
        return outcome
    if isinstance(action, A.BuyDevCard):
        return outcome if viewer == seat else None
    if isinstance(action, A.MoveRobber):
        return outcome if viewer in (seat, action.victim) else None
    return outcome


def outcome_from_json(action: Action, data: Any) -> Any:
    """Inverse of :func:`outcome_to_json` (raises ``ValueError`` if malformed)."""
    if data is None:
        return None
    if isinstance(action, A.BuyDevCard) and isinstance(data, str):
        return int(DevCard.parse(data))
    if isinstance(action, A.MoveRobber) and isinstance(data, str):
        return int(Resource.parse(data))
    if (
        isinstance(action, A.RollDice)
        and isinstance(data, list)
        and len(data) == 2
        and all(isinstance(d, int) and 1 <= d <= 6 for d in data)
    ):
        return (data[0], data[1])
    raise ValueError(f"malformed outcome {data!r} for {action.kind}")


def step_from_json(data: Any) -> Step:
    """Parse one history entry ``{"seat", "action", "outcome"}`` (``ValueError`` if bad)."""
    if not isinstance(data, dict) or not isinstance(data.get("seat"), int):
        raise ValueError("a history step is an object with an integer seat")
    action = A.action_from_dict(data.get("action"))
    return (data["seat"], action, outcome_from_json(action, data.get("outcome")))


def outcome_to_json(action: Action, outcome: Any) -> Any:
    if outcome is None:
        return None
    if isinstance(action, A.BuyDevCard):
        return DevCard(outcome).label
    if isinstance(action, A.MoveRobber):
        return Resource(outcome).label
    return list(outcome)


class History(Sequence[Step]):
    """A read-only view of the first ``length`` steps, masked for ``viewer``."""

    __slots__ = ("_length", "_steps", "_viewer")

    def __init__(self, steps: list[Step], length: int, viewer: int | None) -> None:
        self._steps, self._length, self._viewer = steps, length, viewer

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Step]: ...
    def __getitem__(self, index: int | slice) -> Step | Sequence[Step]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        step = self._steps[index]
        return (step[0], step[1], visible_outcome(step, self._viewer))

    def __iter__(self) -> Iterator[Step]:
        for i in range(self._length):
            yield self[i]

    def to_list(self, start: int = 0) -> list[dict[str, Any]]:
        """Steps ``start..`` in their JSON form, masked for the viewer."""
        viewer, to_json = self._viewer, A.action_to_json
        out = []
        for step in self._steps[start : self._length]:
            seat, action, outcome = step
            if outcome is not None:
                outcome = outcome_to_json(action, visible_outcome(step, viewer))
            out.append({"seat": seat, "action": to_json(action), "outcome": outcome})
        return out


class Observation:
    """A snapshot of the game as one seat (or a spectator, ``seat is None``) sees it."""

    __slots__ = (
        "_steps",
        "_steps_len",
        "bank",
        "board",
        "built",
        "cities_left",
        "clock",
        "config",
        "current",
        "decider",
        "deck_size",
        "dev_cards",
        "dev_cards_new",
        "dev_counts",
        "dev_played",
        "dice",
        "edge_owner",
        "free_roads",
        "hand",
        "knights",
        "largest_army",
        "legal_actions",
        "longest_road",
        "node_kind",
        "node_owner",
        "offer",
        "offers_made",
        "phase",
        "played_dev_cards",
        "resource_counts",
        "responses",
        "resume_phase",
        "road_lengths",
        "roads_left",
        "robber",
        "rolled",
        "seat",
        "settlements_left",
        "setup_index",
        "setup_node",
        "to_discard",
        "turn",
        "visible_points",
    )  # fmt: skip

    seat: int | None
    config: RulesConfig
    board: BoardLayout
    phase: Phase
    turn: int
    current: int
    """Seat whose turn it is."""
    decider: int
    """Seat that must decide now."""
    hand: tuple[int, ...] | None
    dev_cards: tuple[int, ...] | None
    """Own unplayed development cards by kind (victory point cards included)."""
    dev_cards_new: tuple[int, ...] | None
    """Own cards bought this turn (not playable until next turn)."""
    node_owner: tuple[int, ...]
    node_kind: tuple[int, ...]
    edge_owner: tuple[int, ...]
    robber: int
    resource_counts: tuple[int, ...]
    dev_counts: tuple[int, ...]
    knights: tuple[int, ...]
    visible_points: tuple[int, ...]
    road_lengths: tuple[int, ...]
    roads_left: tuple[int, ...]
    settlements_left: tuple[int, ...]
    cities_left: tuple[int, ...]
    longest_road: int | None
    largest_army: int | None
    bank: tuple[int, ...]
    deck_size: int
    dice: tuple[int, int] | None
    rolled: bool
    dev_played: bool
    to_discard: tuple[int, ...]
    built: bool
    """The player on turn has built this turn (matters with strict trade-then-build)."""
    free_roads: int
    """Free roads left to place from a Road Building card."""
    resume_phase: Phase
    """Phase the turn returns to after a robber move or Road Building."""
    setup_index: int
    """Placements made in the set-up phase (settlement + road = 1)."""
    setup_node: int
    """The settlement just placed in the set-up phase (its road must touch it)."""
    played_dev_cards: tuple[int, ...]
    """Development cards played so far by everyone, by kind (they are face up)."""
    offer: tuple[tuple[int, ...], tuple[int, ...]] | None
    responses: tuple[Any, ...]
    offers_made: int
    legal_actions: tuple[Action, ...]
    clock: Clock | None
    """Time for this decision (None when nobody is timing the game)."""
    _steps: list[Step]
    _steps_len: int

    @property
    def history(self) -> History:
        """Every step so far, with chance outcomes masked for this seat."""
        return History(self._steps, self._steps_len, self.seat)

    @property
    def step(self) -> int:
        """Steps played so far: ``len(self.history)``, without building the history."""
        return self._steps_len

    def with_clock(self, clock: Clock | None) -> Observation:
        """A copy of this observation carrying ``clock``."""
        copy = Observation.__new__(Observation)
        for name in Observation.__slots__:
            object.__setattr__(copy, name, getattr(self, name))
        copy.clock = clock
        return copy

    def points(self) -> int | None:
        """Own total points, hidden victory point cards included."""
        if self.seat is None or self.dev_cards is None:
            return None
        return self.visible_points[self.seat] + self.dev_cards[4]

    def to_dict(self, history_from: int | None = None) -> dict[str, Any]:
        """The documented JSON form (``engine.observation_json``). With ``history_from``,
        the history steps from that index on are included (as ``history`` plus
        ``history_start``), so a stream of observations can send only what is new (the
        bot protocol uses the more compact ``engine.observation_stream``)."""
        from engine.observation_json import observation_to_dict

        return observation_to_dict(self, history_from)

    @classmethod
    def from_dict(
        cls, data: Any, *, config: RulesConfig, board: BoardLayout, steps: list[Step]
    ) -> Observation:
        """Rebuild an observation from its JSON form. ``steps`` is the history known so far
        (entries in ``data["history"]`` are appended to it). Raises ``ValueError``."""
        from engine.observation_json import observation_from_dict

        try:
            return observation_from_dict(data, config, board, steps)
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"malformed observation: {exc.__class__.__name__}: {exc}") from None


def _card_counter(seats: int) -> Callable[[list[list[int]]], tuple[int, ...]]:
    """``tuple(map(sum, hands))`` for ``seats`` hands of five counts, as straight-line
    code (half the cost: ``sum`` is a slow call for five items)."""
    names = [f"h{p}" for p in range(seats)]
    sums = "".join(" + ".join(f"{h}[{r}]" for r in range(5)) + ", " for h in names)
    namespace: dict[str, Any] = {}
    run(f"def count(hands):\n    {', '.join(names)}, = hands\n    return ({sums})\n", namespace)
    counter: Callable[[list[list[int]]], tuple[int, ...]] = namespace["count"]
    return counter


_CARD_COUNTS: Final = {n: _card_counter(n) for n in range(1, A.MAX_SEATS + 1)}
"""``_CARD_COUNTS[n](hands)``: the number of cards in each of ``n`` hands."""


def observe(s: GameState, seat: int | None, legal: Sequence[Action] = ()) -> Observation:
    """Build the observation of ``seat`` (None: spectator). ``legal`` is attached as
    the legal actions (pass them only when ``seat`` is the one deciding)."""
    o = Observation.__new__(Observation)
    o.seat = seat
    o.config = s.config
    o.board = s.board.layout
    o.phase = s.phase
    o.turn = s.turn
    o.current = s.current
    o.decider = s.decider
    if seat is None:
        o.hand = o.dev_cards = o.dev_cards_new = None
    else:
        o.hand = tuple(s.hands[seat])
        o.dev_cards = tuple(s.devs[seat])
        o.dev_cards_new = tuple(s.devs_new) if seat == s.current else (0, 0, 0, 0, 0)
    (
        o.node_owner,
        o.node_kind,
        o.edge_owner,
        o.knights,
        o.visible_points,
        o.road_lengths,
        o.roads_left,
        o.settlements_left,
        o.cities_left,
        o.longest_road,
        o.largest_army,
        o.played_dev_cards,
        o.dev_counts,
        o.deck_size,
    ) = s.public_view or s.view_of_public()
    o.robber = s.robber
    o.resource_counts = _CARD_COUNTS[s.n](s.hands)
    o.bank = tuple(s.bank)
    o.dice = s.dice
    o.rolled = s.rolled
    o.dev_played = s.dev_played
    o.to_discard = tuple(s.to_discard)
    o.built = s.built
    o.free_roads = s.free_roads
    o.resume_phase = s.resume_phase
    o.setup_index = s.setup_index
    o.setup_node = s.setup_node
    o.offer = s.offer
    o.responses = tuple(s.responses)
    o.offers_made = s.offers_made
    o.legal_actions = tuple(legal)
    o.clock = None
    o._steps = s.steps
    o._steps_len = len(s.steps)
    return o
