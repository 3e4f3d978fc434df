"""The JSON form of an :class:`~engine.observation.Observation` (observation version 1).

A flat mirror of the observation's fields: per-seat facts are arrays indexed by seat,
board ownership is three arrays (``node_owner``/``node_kind`` per intersection,
``edge_owner`` per path), resource and development card counts are arrays of 5 in the
order of ``Resource`` (brick, lumber, wool, grain, ore) and ``DevCard`` (knight, road
building, year of plenty, monopoly, victory point). Actions use their own JSON form.
``to_dict`` output is plain JSON data (lists, not tuples): ``json.loads(json.dumps(d)) == d``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import actions as A
from engine.board.layouts import BoardLayout
from engine.config import RulesConfig
from engine.phases import Phase

if TYPE_CHECKING:
    from engine.observation import Observation
    from engine.state import Step

OBSERVATION_VERSION = 1

_SEAT_ARRAYS = (
    "resource_counts",
    "dev_counts",
    "knights",
    "visible_points",
    "road_lengths",
    "roads_left",
    "settlements_left",
    "cities_left",
    "to_discard",
)
_SCALARS = (
    "seat",
    "turn",
    "current",
    "decider",
    "robber",
    "longest_road",
    "largest_army",
    "deck_size",
    "rolled",
    "dev_played",
    "built",
    "free_roads",
    "setup_index",
    "setup_node",
    "offers_made",
)
_FIVES = ("hand", "dev_cards", "dev_cards_new")
_PHASES = {p.label: p for p in Phase}
_PHASE_LABELS = {p: p.label for p in Phase}


def _answer_to_json(answer: Any) -> Any:
    if answer is None or isinstance(answer, str):
        return answer
    return {"counter": {"give": list(answer[0]), "get": list(answer[1])}}


def observation_to_dict(o: Observation, history_from: int | None = None) -> dict[str, Any]:
    offer, hand, devs, new = o.offer, o.hand, o.dev_cards, o.dev_cards_new
    legal = [A.action_to_json(a) for a in o.legal_actions]
    data: dict[str, Any] = {
        "version": OBSERVATION_VERSION,
        "phase": _PHASE_LABELS[o.phase],
        "seat": o.seat,
        "turn": o.turn,
        "current": o.current,
        "decider": o.decider,
        "robber": o.robber,
        "longest_road": o.longest_road,
        "largest_army": o.largest_army,
        "deck_size": o.deck_size,
        "rolled": o.rolled,
        "dev_played": o.dev_played,
        "built": o.built,
        "free_roads": o.free_roads,
        "setup_index": o.setup_index,
        "setup_node": o.setup_node,
        "offers_made": o.offers_made,
        "hand": None if hand is None else list(hand),
        "dev_cards": None if devs is None else list(devs),
        "dev_cards_new": None if new is None else list(new),
        "resource_counts": list(o.resource_counts),
        "dev_counts": list(o.dev_counts),
        "knights": list(o.knights),
        "visible_points": list(o.visible_points),
        "road_lengths": list(o.road_lengths),
        "roads_left": list(o.roads_left),
        "settlements_left": list(o.settlements_left),
        "cities_left": list(o.cities_left),
        "to_discard": list(o.to_discard),
        "node_owner": list(o.node_owner),
        "node_kind": list(o.node_kind),
        "edge_owner": list(o.edge_owner),
        "bank": list(o.bank),
        "played_dev_cards": list(o.played_dev_cards),
        "dice": None if o.dice is None else list(o.dice),
        "resume_phase": _PHASE_LABELS[o.resume_phase],
        "offer": None if offer is None else {"give": list(offer[0]), "get": list(offer[1])},
        "responses": [_answer_to_json(r) for r in o.responses],
        "legal_actions": legal,
        "clock": None if o.clock is None else o.clock.to_dict(),
    }
    if history_from is not None:
        data["history_start"] = history_from
        data["history"] = o.history.to_list(history_from)
    return data


def _ints(value: Any, length: int | None, name: str) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or (length is not None and len(value) != length):
        raise ValueError(f"{name} must be an array" + ("" if length is None else f" of {length}"))
    # Element types are not checked one by one: observations come from the trusted host,
    # and a wrong element fails loudly wherever the bot uses it.
    return tuple(value)


def _answer_from_json(data: Any) -> Any:
    if data is None or data == "accept" or data == "reject":
        return data
    counter = data["counter"]
    return (_ints(counter["give"], 5, "counter"), _ints(counter["get"], 5, "counter"))


def observation_from_dict(
    data: Any, config: RulesConfig, board: BoardLayout, steps: list[Step]
) -> Observation:
    from engine.observation import Clock, Observation, step_from_json

    if not isinstance(data, dict):
        raise ValueError("an observation must be an object")
    if data.get("version") != OBSERVATION_VERSION:
        raise ValueError(f"unsupported observation version {data.get('version')!r}")
    history = data.get("history")
    if history is not None:
        start = data.get("history_start")
        if start != len(steps):
            raise ValueError(f"history starts at {start}, but {len(steps)} steps are known")
        steps.extend(step_from_json(item) for item in history)
    o = Observation.__new__(Observation)
    o.config, o.board = config, board
    for name in _SCALARS:
        setattr(o, name, data[name])
    n = config.players
    for name in _FIVES:
        value = data[name]
        setattr(o, name, None if value is None else _ints(value, 5, name))
    for name in _SEAT_ARRAYS:
        setattr(o, name, _ints(data[name], n, name))
    o.node_owner = _ints(data["node_owner"], A.NUM_NODES, "node_owner")
    o.node_kind = _ints(data["node_kind"], A.NUM_NODES, "node_kind")
    o.edge_owner = _ints(data["edge_owner"], A.NUM_EDGES, "edge_owner")
    o.bank = _ints(data["bank"], 5, "bank")
    o.played_dev_cards = _ints(data["played_dev_cards"], 5, "played_dev_cards")
    dice = data["dice"]
    o.dice = None if dice is None else (dice[0], dice[1])
    o.phase = _PHASES[data["phase"]]
    o.resume_phase = _PHASES[data["resume_phase"]]
    offer = data["offer"]
    o.offer = (
        None
        if offer is None
        else (_ints(offer["give"], 5, "offer"), _ints(offer["get"], 5, "offer"))
    )
    o.responses = tuple(_answer_from_json(r) for r in data["responses"])
    o.legal_actions = tuple(A.action_from_dict(a) for a in data["legal_actions"])
    clock = data.get("clock")
    o.clock = None if clock is None else Clock.from_dict(clock)
    o._steps = steps
    o._steps_len = len(steps)
    return o
