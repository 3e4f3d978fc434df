"""Actions: small immutable values with a stable JSON form and a human notation.

Every decision in the game is one of these. ``to_dict()`` gives the documented JSON form
(``{"type": "build_road", "edge": 12}``); :func:`action_from_dict` parses it back and
raises :class:`~engine.errors.InvalidActionError` on anything malformed. ``str(action)``
is a short notation (``road 12``), parsed back by :func:`parse_action`.

The enumerable actions are interned in tables (``ROADS[e]``, ``SETTLEMENTS[n]``, ...) so
that legal-action enumeration allocates nothing.
"""

from __future__ import annotations

from engine.errors import InvalidActionError
from engine.static_typing import TYPE_CHECKING
from engine.types import Bag, Resource, bag_from_dict, bag_str, bag_to_dict
from engine.valueclass import value_class

if TYPE_CHECKING:
    from typing import Any, ClassVar, Final

NUM_NODES: Final = 54
NUM_EDGES: Final = 72
NUM_HEXES: Final = 19
MAX_SEATS: Final = 6


class Action:
    """Base class of all actions."""

    __slots__ = ()
    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}

    def __str__(self) -> str:
        return self.kind.replace("_", "-")


@value_class
class RollDice(Action):
    kind: ClassVar[str] = "roll_dice"

    def __str__(self) -> str:
        return "roll"


@value_class
class EndTurn(Action):
    kind: ClassVar[str] = "end_turn"

    def __str__(self) -> str:
        return "end"


@value_class
class BuildRoad(Action):
    """Build a road on a path (free during set-up and Road Building)."""

    edge: int
    kind: ClassVar[str] = "build_road"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "edge": self.edge}

    def __str__(self) -> str:
        return f"road {self.edge}"


@value_class
class BuildSettlement(Action):
    """Build a settlement on an intersection (free during set-up)."""

    node: int
    kind: ClassVar[str] = "build_settlement"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "node": self.node}

    def __str__(self) -> str:
        return f"settle {self.node}"


@value_class
class BuildCity(Action):
    node: int
    kind: ClassVar[str] = "build_city"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "node": self.node}

    def __str__(self) -> str:
        return f"city {self.node}"


@value_class
class BuyDevCard(Action):
    kind: ClassVar[str] = "buy_dev_card"

    def __str__(self) -> str:
        return "buy"


@value_class
class PlayKnight(Action):
    kind: ClassVar[str] = "play_knight"

    def __str__(self) -> str:
        return "knight"


@value_class
class PlayRoadBuilding(Action):
    kind: ClassVar[str] = "play_road_building"

    def __str__(self) -> str:
        return "road-building"


@value_class
class PlayYearOfPlenty(Action):
    first: Resource
    second: Resource
    kind: ClassVar[str] = "play_year_of_plenty"

    def __post_init__(self) -> None:
        # The two picks are unordered: keep them sorted so equal choices compare equal.
        if self.second < self.first:
            first = self.first
            object.__setattr__(self, "first", self.second)
            object.__setattr__(self, "second", first)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "resources": [self.first.label, self.second.label]}

    def __str__(self) -> str:
        return f"plenty {self.first.label} {self.second.label}"


@value_class
class PlayMonopoly(Action):
    resource: Resource
    kind: ClassVar[str] = "play_monopoly"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "resource": self.resource.label}

    def __str__(self) -> str:
        return f"monopoly {self.resource.label}"


@value_class
class MaritimeTrade(Action):
    """Trade with the bank at the best ratio the player has for ``give`` (4, 3 or 2 : 1)."""

    give: Resource
    get: Resource
    kind: ClassVar[str] = "maritime_trade"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "give": self.give.label, "get": self.get.label}

    def __str__(self) -> str:
        return f"bank {self.give.label} {self.get.label}"


@value_class
class Discard(Action):
    """Discard one card after a 7 (repeated until half the hand is gone)."""

    resource: Resource
    kind: ClassVar[str] = "discard"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "resource": self.resource.label}

    def __str__(self) -> str:
        return f"discard {self.resource.label}"


@value_class
class MoveRobber(Action):
    """Move the robber to ``hex`` and steal from ``victim`` (None if nobody can be robbed)."""

    hex: int
    victim: int | None
    kind: ClassVar[str] = "move_robber"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "hex": self.hex, "victim": self.victim}

    def __str__(self) -> str:
        return f"robber {self.hex}" + ("" if self.victim is None else f" {self.victim}")


@value_class
class ProposeTrade(Action):
    """Offer ``give`` (from the proposer's hand) for ``get`` to every other player."""

    give: Bag
    get: Bag
    kind: ClassVar[str] = "propose_trade"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "give": bag_to_dict(self.give), "get": bag_to_dict(self.get)}

    def __str__(self) -> str:
        return f"offer {bag_str(self.give)} for {bag_str(self.get)}"


@value_class
class AcceptTrade(Action):
    kind: ClassVar[str] = "accept_trade"

    def __str__(self) -> str:
        return "accept"


@value_class
class RejectTrade(Action):
    kind: ClassVar[str] = "reject_trade"

    def __str__(self) -> str:
        return "reject"


@value_class
class CounterTrade(Action):
    """A responder's counter-offer: the responder gives ``give`` and receives ``get``."""

    give: Bag
    get: Bag
    kind: ClassVar[str] = "counter_trade"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "give": bag_to_dict(self.give), "get": bag_to_dict(self.get)}

    def __str__(self) -> str:
        return f"counter {bag_str(self.give)} for {bag_str(self.get)}"


@value_class
class ConfirmTrade(Action):
    """The proposer completes the trade with ``seat`` (its acceptance or its counter)."""

    seat: int
    kind: ClassVar[str] = "confirm_trade"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat}

    def __str__(self) -> str:
        return f"confirm {self.seat}"


@value_class
class CancelTrade(Action):
    kind: ClassVar[str] = "cancel_trade"

    def __str__(self) -> str:
        return "cancel"


ACTION_TYPES: Final[tuple[type[Action], ...]] = (
    RollDice, EndTurn, BuildRoad, BuildSettlement, BuildCity, BuyDevCard, PlayKnight,
    PlayRoadBuilding, PlayYearOfPlenty, PlayMonopoly, MaritimeTrade, Discard, MoveRobber,
    ProposeTrade, AcceptTrade, RejectTrade, CounterTrade, ConfirmTrade, CancelTrade,
)  # fmt: skip
_BY_KIND: Final = {cls.kind: cls for cls in ACTION_TYPES}

# Interned instances used by legal-action enumeration.
ROLL: Final = RollDice()
END_TURN: Final = EndTurn()
BUY_DEV: Final = BuyDevCard()
KNIGHT: Final = PlayKnight()
ROAD_BUILDING: Final = PlayRoadBuilding()
ACCEPT: Final = AcceptTrade()
REJECT: Final = RejectTrade()
CANCEL: Final = CancelTrade()
ROADS: Final = tuple(BuildRoad(e) for e in range(NUM_EDGES))
SETTLEMENTS: Final = tuple(BuildSettlement(n) for n in range(NUM_NODES))
CITIES: Final = tuple(BuildCity(n) for n in range(NUM_NODES))
DISCARDS: Final = tuple(Discard(r) for r in Resource)
MONOPOLIES: Final = tuple(PlayMonopoly(r) for r in Resource)
PLENTY: Final = tuple(tuple(PlayYearOfPlenty(a, b) for b in Resource) for a in Resource)
MARITIME: Final = tuple(tuple(MaritimeTrade(g, t) for t in Resource) for g in Resource)
CONFIRMS: Final = tuple(ConfirmTrade(s) for s in range(MAX_SEATS))
ROBBER: Final = tuple(
    tuple(MoveRobber(h, None if v < 0 else v) for v in range(-1, MAX_SEATS))
    for h in range(NUM_HEXES)
)
"""``ROBBER[hex][victim + 1]``."""
_UNIT: Final = tuple(tuple(1 if i == r else 0 for i in range(5)) for r in range(5))
OFFERS_ONE_FOR_ONE: Final = tuple(
    tuple(ProposeTrade(_UNIT[g], _UNIT[t]) for t in range(5)) for g in range(5)
)


_INTERNED: Final[tuple[Action, ...]] = (
    ROLL, END_TURN, BUY_DEV, KNIGHT, ROAD_BUILDING, ACCEPT, REJECT, CANCEL,
    *ROADS, *SETTLEMENTS, *CITIES, *DISCARDS, *MONOPOLIES, *CONFIRMS,
    *(a for row in PLENTY for a in row), *(a for row in MARITIME for a in row),
    *(a for row in ROBBER for a in row), *(a for row in OFFERS_ONE_FOR_ONE for a in row),
)  # fmt: skip
_SINGLETONS: Final[dict[type[Action], Action]] = {
    type(a): a for a in (ROLL, END_TURN, BUY_DEV, KNIGHT, ROAD_BUILDING, ACCEPT, REJECT, CANCEL)
}
_JSON_BY_ID: Final[dict[int, dict[str, Any]]] = {id(a): a.to_dict() for a in _INTERNED}
_DECODED: dict[tuple[Any, ...], Action] = {}
_DECODED_MAX = 4096


def is_interned(action: Action) -> bool:
    """True for the actions of the interned tables (one object per value, kept forever)."""
    return id(action) in _JSON_BY_ID


def action_to_json(action: Action) -> dict[str, Any]:
    """``action.to_dict()``, fast for the interned actions (a fresh copy every time)."""
    cached = _JSON_BY_ID.get(id(action))
    return dict(cached) if cached is not None else action.to_dict()


def _int_field(data: dict[str, Any], name: str, upper: int) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < upper:
        raise InvalidActionError(
            f"{data.get('type')}: {name!r} must be an integer in 0..{upper - 1}"
        )
    return value


def _resource_field(data: dict[str, Any], name: str) -> Resource:
    value = data.get(name)
    if not isinstance(value, str):
        raise InvalidActionError(f"{data.get('type')}: {name!r} must be a resource name")
    try:
        return Resource.parse(value)
    except ValueError as exc:
        raise InvalidActionError(f"{data.get('type')}: {exc}") from None


def _bag_field(data: dict[str, Any], name: str) -> Bag:
    try:
        return bag_from_dict(data.get(name))
    except ValueError as exc:
        raise InvalidActionError(f"{data.get('type')}: {name!r}: {exc}") from None


def action_from_dict(data: object) -> Action:
    """Parse the JSON form of an action; raise :class:`InvalidActionError` if malformed,
    including fields the action does not have (what a bot sends is never kept beyond
    the action's own fields: the decode cache holds canonical keys only, and is bounded)."""
    if type(data) is dict:
        try:
            # Types are part of the key, so that True or 1.0 never pass for the int 1.
            key = (*data.items(), *map(type, data.values()))
            hit = _DECODED.get(key)
        except TypeError:  # unhashable values (trade bags): no caching
            return _only_own_fields(data, _parse_action_dict(data))
        if hit is not None:
            return hit
        action = _only_own_fields(data, _parse_action_dict(data))
        if len(_DECODED) < _DECODED_MAX and id(action) in _JSON_BY_ID:
            _DECODED[key] = action
        return action
    return _parse_action_dict(data)


def _only_own_fields(data: dict[str, Any], action: Action) -> Action:
    canonical = _JSON_BY_ID.get(id(action)) or action.to_dict()
    extra = data.keys() - canonical.keys()
    if extra:
        names = ", ".join(repr(str(name)[:20]) for name in sorted(map(str, extra))[:3])
        raise InvalidActionError(f"{action.kind}: unknown field(s) {names} ({len(extra)} in all)")
    return action


def _parse_action_dict(data: object) -> Action:
    if not isinstance(data, dict):
        raise InvalidActionError(f"an action must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    cls = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidActionError(f"unknown action type {kind!r}")
    if cls is BuildRoad:
        return ROADS[_int_field(data, "edge", NUM_EDGES)]
    if cls is BuildSettlement:
        return SETTLEMENTS[_int_field(data, "node", NUM_NODES)]
    if cls is BuildCity:
        return CITIES[_int_field(data, "node", NUM_NODES)]
    if cls is PlayYearOfPlenty:
        pair = data.get("resources")
        if not isinstance(pair, list) or len(pair) != 2:
            raise InvalidActionError("play_year_of_plenty: 'resources' must list 2 resources")
        a = _resource_field({"type": kind, "r": pair[0]}, "r")
        b = _resource_field({"type": kind, "r": pair[1]}, "r")
        return PLENTY[a][b]
    if cls is PlayMonopoly:
        return MONOPOLIES[_resource_field(data, "resource")]
    if cls is Discard:
        return DISCARDS[_resource_field(data, "resource")]
    if cls is MaritimeTrade:
        return MARITIME[_resource_field(data, "give")][_resource_field(data, "get")]
    if cls is MoveRobber:
        hex_ = _int_field(data, "hex", NUM_HEXES)
        victim = data.get("victim")
        if victim is None:
            return ROBBER[hex_][0]
        return ROBBER[hex_][_int_field(data, "victim", MAX_SEATS) + 1]
    if cls is ProposeTrade:
        return ProposeTrade(_bag_field(data, "give"), _bag_field(data, "get"))
    if cls is CounterTrade:
        return CounterTrade(_bag_field(data, "give"), _bag_field(data, "get"))
    if cls is ConfirmTrade:
        return CONFIRMS[_int_field(data, "seat", MAX_SEATS)]
    return _SINGLETONS[cls]


_SIMPLE: Final[dict[str, Action]] = {
    "roll": ROLL,
    "end": END_TURN,
    "buy": BUY_DEV,
    "knight": KNIGHT,
    "road-building": ROAD_BUILDING,
    "accept": ACCEPT,
    "reject": REJECT,
    "cancel": CANCEL,
}


def parse_action(text: str) -> Action:
    """Parse the notation produced by ``str(action)``."""
    words = text.split()
    if not words:
        raise InvalidActionError("empty action text")
    head, args = words[0], words[1:]
    try:
        if head in _SIMPLE and not args:
            return _SIMPLE[head]
        if head == "road" and len(args) == 1:
            return action_from_dict({"type": "build_road", "edge": int(args[0])})
        if head == "settle" and len(args) == 1:
            return action_from_dict({"type": "build_settlement", "node": int(args[0])})
        if head == "city" and len(args) == 1:
            return action_from_dict({"type": "build_city", "node": int(args[0])})
        if head == "plenty" and len(args) == 2:
            return action_from_dict({"type": "play_year_of_plenty", "resources": args})
        if head == "monopoly" and len(args) == 1:
            return action_from_dict({"type": "play_monopoly", "resource": args[0]})
        if head == "discard" and len(args) == 1:
            return action_from_dict({"type": "discard", "resource": args[0]})
        if head == "bank" and len(args) == 2:
            return action_from_dict({"type": "maritime_trade", "give": args[0], "get": args[1]})
        if head == "robber" and len(args) in (1, 2):
            victim = int(args[1]) if len(args) == 2 else None
            return action_from_dict({"type": "move_robber", "hex": int(args[0]), "victim": victim})
        if head == "confirm" and len(args) == 1:
            return action_from_dict({"type": "confirm_trade", "seat": int(args[0])})
        if head in ("offer", "counter") and len(args) == 3 and args[1] == "for":
            kind = "propose_trade" if head == "offer" else "counter_trade"
            return action_from_dict(
                {"type": kind, "give": _parse_bag(args[0]), "get": _parse_bag(args[2])}
            )
    except ValueError as exc:
        raise InvalidActionError(f"cannot parse action {text!r}: {exc}") from None
    raise InvalidActionError(f"cannot parse action {text!r}")


def _parse_bag(text: str) -> dict[str, int]:
    if text == "nothing":
        return {}
    out: dict[str, int] = {}
    for part in text.split("+"):
        digits = len(part) - len(part.lstrip("0123456789"))
        if digits == 0:
            raise ValueError(f"bad resource count {part!r}")
        out[part[digits:]] = out.get(part[digits:], 0) + int(part[:digits])
    return out
