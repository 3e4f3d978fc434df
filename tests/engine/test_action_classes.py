"""The action classes behave exactly as ``dataclass(frozen=True, slots=True)`` would make them
(``engine.actions`` builds them without the stdlib decorator, which is slow to import)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from engine import actions as A
from engine.types import Resource

SAMPLES: list[A.Action] = [
    *(a for cls in A.ACTION_TYPES for a in [x for x in A._INTERNED if type(x) is cls][:3]),
    A.ProposeTrade((1, 0, 2, 0, 0), (0, 1, 0, 0, 0)),
    A.CounterTrade((0, 0, 0, 0, 1), (1, 0, 0, 0, 0)),
    A.PlayYearOfPlenty(Resource.GRAIN, Resource.BRICK),
]


def stdlib_twin(cls: type[A.Action]) -> Any:
    """The same class as the stdlib decorator makes it."""
    namespace = {
        k: v
        for k, v in vars(cls).items()
        if k in ("__module__", "__qualname__", "kind", "__doc__")
        or k in ("to_dict", "__str__", "__post_init__")
    }
    # the fields' annotations ("ClassVar[str]" is a string the stdlib cannot resolve in a
    # module that does not import typing at run time: kind is a plain class attribute)
    annotations = vars(cls).get("__annotations__", {})
    namespace["__annotations__"] = {n: a for n, a in annotations.items() if "ClassVar" not in a}
    return dataclasses.dataclass(frozen=True, slots=True)(
        type(cls.__name__, cls.__bases__, namespace)
    )


TWINS = {cls: stdlib_twin(cls) for cls in A.ACTION_TYPES}


def twin_of(action: A.Action) -> Any:
    twin = TWINS[type(action)]
    return twin(*(getattr(action, f.name) for f in dataclasses.fields(twin)))


@pytest.mark.parametrize("cls", A.ACTION_TYPES, ids=lambda c: c.__name__)
def test_class_shape_matches_the_stdlib_dataclass(cls: type[A.Action]) -> None:
    twin = TWINS[cls]
    assert cls.__slots__ == twin.__slots__  # type: ignore[attr-defined]
    assert cls.__match_args__ == twin.__match_args__  # type: ignore[attr-defined]
    assert [f.name for f in dataclasses.fields(cls)] == [f.name for f in dataclasses.fields(twin)]
    assert dataclasses.is_dataclass(cls)
    assert cls.__mro__[1:] == (A.Action, object)


@pytest.mark.parametrize("action", SAMPLES, ids=repr)
def test_instances_match_the_stdlib_dataclass(action: A.Action) -> None:
    twin = twin_of(action)
    assert repr(action) == repr(twin)
    assert not hasattr(action, "__dict__")
    assert hash(action) == hash(twin)
    assert str(action) == str(twin) and action.to_dict() == twin.to_dict()
    assert dataclasses.asdict(action) == dataclasses.asdict(twin)
    assert action.__getstate__() == twin.__getstate__()  # type: ignore[attr-defined]
    again = type(action)(*twin.__getstate__())  # type: ignore[call-arg]
    assert again == action and hash(again) == hash(action) and again is not action
    assert action != twin  # another class: never equal, as between two dataclasses
    for clone in (copy.copy(action), copy.deepcopy(action), pickle.loads(pickle.dumps(action))):
        assert type(clone) is type(action) and clone == action
    assert dataclasses.replace(action) == action
    for name in (*type(action).__match_args__, "other"):  # type: ignore[attr-defined]
        with pytest.raises(
            dataclasses.FrozenInstanceError, match=f"cannot assign to field '{name}'"
        ):
            setattr(action, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot delete field '{name}'"):
            delattr(action, name)


def test_constructors_take_fields_by_position_or_keyword() -> None:
    assert A.MoveRobber(hex=3, victim=None) is not A.ROBBER[3][0]
    assert A.MoveRobber(hex=3, victim=None) == A.ROBBER[3][0] == A.MoveRobber(3, None)
    assert (
        A.PlayYearOfPlenty(Resource.WOOL, Resource.BRICK) == A.PLENTY[Resource.BRICK][Resource.WOOL]
    )
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'edge'"):
        A.BuildRoad()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        A.RollDice(1)  # type: ignore[call-arg]
    match A.ROBBER[5][2]:
        case A.MoveRobber(h, v):
            assert (h, v) == (5, 1)
        case _:
            pytest.fail("no match")


def test_interned_tables_are_single_objects() -> None:
    assert A.action_from_dict({"type": "build_road", "edge": 7}) is A.ROADS[7]
    assert A.parse_action("robber 4 2") is A.ROBBER[4][3]
    assert all(A.is_interned(a) for a in A._INTERNED)
    assert not A.is_interned(A.BuildRoad(7))
