"""Actions: immutable values with a stable JSON form and a notation that round-trips."""

from __future__ import annotations

import json

import pytest

from engine import actions as A
from engine.errors import InvalidActionError
from engine.types import Resource

ALL_INTERNED: list[A.Action] = [
    A.ROLL, A.END_TURN, A.BUY_DEV, A.KNIGHT, A.ROAD_BUILDING, A.ACCEPT, A.REJECT, A.CANCEL,
    *A.ROADS, *A.SETTLEMENTS, *A.CITIES, *A.DISCARDS, *A.MONOPOLIES, *A.CONFIRMS,
    *(a for row in A.PLENTY for a in row), *(a for row in A.MARITIME for a in row),
    *(a for row in A.ROBBER for a in row), *(a for row in A.OFFERS_ONE_FOR_ONE for a in row),
    A.ProposeTrade((2, 0, 0, 0, 1), (0, 0, 0, 3, 0)),
    A.CounterTrade((0, 1, 0, 0, 0), (1, 0, 0, 0, 0)),
]  # fmt: skip


@pytest.mark.parametrize("action", ALL_INTERNED, ids=str)
def test_json_and_notation_round_trip(action: A.Action) -> None:
    wire = json.loads(json.dumps(action.to_dict()))
    assert A.action_from_dict(wire) == action
    assert A.parse_action(str(action)) == action
    assert hash(A.action_from_dict(wire)) == hash(action)
    assert eval(repr(action), vars(A) | {"Resource": Resource}) == action


def test_documented_json_forms_are_stable() -> None:
    assert A.ROADS[12].to_dict() == {"type": "build_road", "edge": 12}
    assert A.ROBBER[4][3].to_dict() == {"type": "move_robber", "hex": 4, "victim": 2}
    assert A.MARITIME[4][2].to_dict() == {"type": "maritime_trade", "give": "ore", "get": "wool"}
    assert A.ProposeTrade((1, 0, 0, 0, 0), (0, 0, 0, 0, 2)).to_dict() == {
        "type": "propose_trade",
        "give": {"brick": 1},
        "get": {"ore": 2},
    }


def test_year_of_plenty_choice_is_unordered() -> None:
    assert A.PlayYearOfPlenty(Resource.ORE, Resource.BRICK) == A.PLENTY[0][4]
    parsed = A.action_from_dict({"type": "play_year_of_plenty", "resources": ["ore", "brick"]})
    assert parsed == A.PLENTY[0][4]


def test_actions_are_immutable() -> None:
    with pytest.raises(AttributeError):
        A.ROADS[1].edge = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("road 3", "must be a JSON object"),
        ({"type": "teleport"}, "unknown action type"),
        ({"type": "build_road"}, "'edge' must be an integer"),
        ({"type": "build_road", "edge": 72}, "0..71"),
        ({"type": "build_road", "edge": True}, "must be an integer"),
        ({"type": "discard", "resource": "gold"}, "unknown resource"),
        ({"type": "move_robber", "hex": 3, "victim": "x"}, "'victim' must be an integer"),
        ({"type": "propose_trade", "give": {"ore": -1}, "get": {}}, "non-negative"),
        ({"type": "play_year_of_plenty", "resources": ["ore"]}, "2 resources"),
    ],
)
def test_malformed_json_is_rejected_with_a_reason(data: object, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        A.action_from_dict(data)


@pytest.mark.parametrize("text", ["", "road", "road x", "fly 3", "offer 1ore 2wool", "bank ore"])
def test_bad_notation_is_rejected(text: str) -> None:
    with pytest.raises(InvalidActionError):
        A.parse_action(text)
