"""The compact wire form of one seat's stream of observations (stream version 1).

A bot sees dozens of observations per game that differ in a few fields. Rather than
the whole observation JSON (``engine.observation_json``) every time, the match runner
sends each seat a *delta*: what changed since the previous observation of the same game.
Both sides keep the same state: the last value of every field, the history so far and an
*action table* (every action mentioned so far, numbered from 0 in order of first use).
Legal actions, history steps and (from the bot) the chosen action are table numbers.

An encoded observation (a JSON object, every key optional except ``legal``)::

    {"actions_start": 12, "actions": [{"type": "build_road", "edge": 3}, ...],
     "history_start": 40, "history": [[seat, action_number, outcome], ...],
     "fields": {"phase": "main", "hand": [1, 0, 2, 0, 0], ...},
     "legal": [3, 12, 13], "clock": {"decision": 1.0, "bank": 10.0}}

- ``actions`` are appended to the table (their numbers continue from ``actions_start``,
  the table length before them); action JSON as in ``engine.actions``.
- ``history`` steps are appended to the history (``history_start`` is its length before
  them); ``outcome`` is the step's chance outcome as the seat may see it, in the history
  JSON form of ``engine.observation``.
- ``fields`` holds the fields of the observation JSON (``engine.observation_json``) whose
  value changed; the first observation of a game carries them all.
- ``legal`` lists the legal actions as table numbers.

The ``*_start`` numbers let the receiver detect a lost or repeated message.
"""

from __future__ import annotations

import operator
from itertools import compress

from engine import actions as A
from engine.board.layouts import BoardLayout
from engine.codegen import run
from engine.config import RulesConfig
from engine.observation import Clock, Observation, outcome_from_json, outcome_to_json
from engine.observation import visible_outcome as _visible
from engine.phases import Phase
from engine.state import Step
from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Final

STREAM_VERSION: Final = 1

_DERIVED: Final = frozenset({"legal_actions", "clock", "_steps", "_steps_len", "config", "board"})
FIELDS: Final[tuple[str, ...]] = tuple(n for n in Observation.__slots__ if n not in _DERIVED)
"""The observation fields sent as ``fields`` (by their JSON names)."""
_FIELD_SET: Final = frozenset(FIELDS)
_read_fields: Final = operator.attrgetter(*FIELDS)
_PHASES: Final = {p.label: p for p in Phase}
_TUPLE_FIELDS: Final = frozenset(
    {
        "hand", "dev_cards", "dev_cards_new", "resource_counts", "dev_counts", "knights",
        "visible_points", "road_lengths", "roads_left", "settlements_left", "cities_left",
        "to_discard", "node_owner", "node_kind", "edge_owner", "bank", "played_dev_cards",
        "dice",
    }
)  # fmt: skip
_MISSING: Final = object()


class ObservationEncoder:
    """The host side of one seat's stream: call :meth:`reset` at each game's start."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._last: tuple[Any, ...] = ()
        self._by_identity: dict[int, int] = {}
        """Table numbers of interned actions, by ``id`` (they live as long as the program)."""
        self._by_value: dict[A.Action, int] = {}
        self._table: list[A.Action] = []
        self._sent_steps = 0

    def action(self, number: Any) -> A.Action:
        """The table's action ``number`` (``ValueError`` if there is none)."""
        if type(number) is not int or not 0 <= number < len(self._table):
            raise ValueError(f"no action number {number!r} in the table")
        return self._table[number]

    def _number(self, action: A.Action, new: list[dict[str, Any]]) -> int:
        key = id(action)
        number = self._by_identity.get(key)
        if number is not None:
            return number
        number = self._by_value.get(action)
        if number is not None:
            return number
        number = len(self._table)
        self._table.append(action)
        new.append(A.action_to_json(action))
        if A.is_interned(action):
            self._by_identity[key] = number
        else:
            self._by_value[action] = number
        return number

    def encode(self, obs: Observation) -> dict[str, Any]:
        """The delta for ``obs`` (the next observation of this seat in this game)."""
        new: list[dict[str, Any]] = []
        data: dict[str, Any] = {"actions_start": len(self._table)}
        values = _read_fields(obs)
        last = self._last or (_MISSING,) * len(FIELDS)
        if values != last:
            fields = {}
            for i in compress(_INDEXES, map(operator.ne, values, last)):
                name, value = FIELDS[i], values[i]
                convert = _TO_JSON.get(name)
                fields[name] = value if convert is None else convert(value)
            data["fields"] = fields
            self._last = values
        start, end = self._sent_steps, obs._steps_len
        if end > start:
            data["history_start"] = start
            seat, steps, known = obs.seat, obs._steps, self._by_identity
            history = []
            for i in range(start, end):
                step = steps[i]
                who, action, outcome = step
                if outcome is not None:
                    outcome = outcome_to_json(action, _visible(step, seat))
                number = known.get(id(action))
                if number is None:
                    number = self._number(action, new)
                history.append([who, number, outcome])
            data["history"] = history
            self._sent_steps = end
        known = self._by_identity
        legal = [known.get(id(a), -1) for a in obs.legal_actions]
        if -1 in legal:
            legal = [self._number(a, new) for a in obs.legal_actions]
        data["legal"] = legal
        if obs.clock is not None:
            data["clock"] = obs.clock.to_dict()
        if new:
            data["actions"] = new
        return data


def _offer_json(offer: Any) -> Any:
    return None if offer is None else {"give": offer[0], "get": offer[1]}


def _responses_json(responses: Any) -> Any:
    return [
        r if r is None or isinstance(r, str) else {"counter": {"give": r[0], "get": r[1]}}
        for r in responses
    ]


_TO_JSON: Final[dict[str, Any]] = {
    "phase": operator.attrgetter("label"),
    "resume_phase": operator.attrgetter("label"),
    "offer": _offer_json,
    "responses": _responses_json,
}
"""How fields that are not plain JSON already are written (tuples write as arrays)."""
_INDEXES: Final = range(len(FIELDS))


def _array(data: Any) -> Any:
    if data is None:
        return None
    if not isinstance(data, (list, tuple)):
        raise ValueError("an array field is not an array")
    return tuple(data)


def _offer_value(data: Any) -> Any:
    return None if data is None else (tuple(data["give"]), tuple(data["get"]))


def _responses_value(data: Any) -> Any:
    return tuple(r if r is None or isinstance(r, str) else _offer_value(r["counter"]) for r in data)


_FROM_JSON: Final[dict[str, Any]] = {
    **dict.fromkeys(_TUPLE_FIELDS, _array),
    "phase": _PHASES.__getitem__,
    "resume_phase": _PHASES.__getitem__,
    "offer": _offer_value,
    "responses": _responses_value,
}
"""How fields that are not kept as JSON gives them are read (the rest: as they are)."""


class ObservationDecoder:
    """The bot side of one seat's stream: rebuilds each :class:`Observation`."""

    def __init__(self, config: RulesConfig, board: BoardLayout) -> None:
        self.config, self.board = config, board
        self._values: dict[str, Any] = {}
        self._table: list[A.Action] = []
        self._numbers: dict[int, int] = {}
        """Table numbers by ``id`` of the table's own action objects (for replies)."""
        self.steps: list[Step] = []

    def number_of(self, action: A.Action) -> int | None:
        """The table number of ``action`` if it is one of the table's objects, else None."""
        number = self._numbers.get(id(action))
        return number if number is not None and self._table[number] is action else None

    def decode(self, data: Any) -> Observation:
        """The next observation (``ValueError`` if ``data`` is malformed or out of step)."""
        try:
            return self._decode(data)
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"malformed observation: {type(exc).__name__}: {exc}") from None

    def _decode(self, data: Any) -> Observation:
        if not isinstance(data, dict):
            raise ValueError("an observation must be an object")
        table = self._table
        if data.get("actions_start", 0) != len(table):
            raise ValueError(f"actions start at {data.get('actions_start')}, {len(table)} known")
        for item in data.get("actions", ()):
            action = A.action_from_dict(item)
            self._numbers[id(action)] = len(table)
            table.append(action)
        history = data.get("history")
        if history is not None:
            steps = self.steps
            if data.get("history_start") != len(steps):
                raise ValueError(f"history starts at {data.get('history_start')}, not {len(steps)}")
            for seat, number, outcome in history:
                action = table[_index(number)]
                if outcome is not None:
                    outcome = outcome_from_json(action, outcome)
                steps.append((seat, action, outcome))
        values = self._values
        for name, value in data.get("fields", {}).items():
            if name in _FIELD_SET:  # unknown names: from a newer host, ignored
                convert = _FROM_JSON.get(name)
                values[name] = value if convert is None else convert(value)
        if len(values) != len(FIELDS):
            raise ValueError("the first observation of a game must carry every field")
        o = Observation.__new__(Observation)
        _assign_fields(o, values)
        o.config, o.board = self.config, self.board
        legal = data["legal"]
        if legal and min(legal) < 0:
            raise ValueError("action numbers are not negative")
        o.legal_actions = tuple(map(table.__getitem__, legal))
        clock = data.get("clock")
        o.clock = None if clock is None else Clock.from_dict(clock)
        o._steps, o._steps_len = self.steps, len(self.steps)
        return o


def _assigner() -> Any:
    """``_assign_fields(o, values)``: ``o.<name> = values["<name>"]`` for every field,
    as straight-line code (a loop of ``setattr`` costs three times as much)."""
    body = "".join(f"    o.{name} = v[{name!r}]\n" for name in FIELDS)
    namespace: dict[str, Any] = {}
    run(f"def _assign_fields(o, v):\n{body}", namespace)
    return namespace["_assign_fields"]


_assign_fields: Final = _assigner()


def _index(number: Any) -> int:
    if type(number) is not int or number < 0:
        raise IndexError(f"bad action number {number!r}")
    return number
