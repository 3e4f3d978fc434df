"""The engine's ``value_class`` classes with defaults, and those without slots or with
identity equality, behave exactly as the stdlib ``dataclass`` would make them (the
action classes: ``test_action_classes.py``); ``bots.jail.JailReport`` as its dataclass."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from functools import cached_property
from typing import Any, ClassVar

import pytest

from bots.jail import LAYERS, JailLimits, JailReport
from engine.board.layouts import BoardLayout, beginner_layout
from engine.board.tables import Board, board_for
from engine.board.topology import Topology, standard_topology
from engine.config import BoardSetup, RulesConfig
from engine.observation import Clock
from engine.outcome import Outcome
from engine.phases import Termination
from engine.valueclass import _GENERATED, field_names, value_class


@value_class
class Point:
    """Slots, field-wise equality, defaults and a ``ClassVar``."""

    dims: ClassVar[int] = 2
    x: int
    y: int = 0
    label: str = "p"

    def __post_init__(self) -> None:
        if self.x < 0:
            object.__setattr__(self, "x", -self.x)


@value_class(eq=False, slots=False)
class Node:
    """An instance ``__dict__`` (for ``cached_property``), identity equality."""

    name: str
    weight: float = 1.0

    @cached_property
    def double(self) -> float:
        return 2 * self.weight


@value_class(slots=False)
class Limits:
    """An instance ``__dict__``, field-wise equality, defaults only."""

    low: int = 1
    high: int = 9


@value_class(eq=False)
class Token:
    """Slots, identity equality."""

    value: int


OPTIONS: dict[type, dict[str, bool]] = {
    Point: {"slots": True},
    Node: {"eq": False},
    Limits: {},
    Token: {"eq": False, "slots": True},
    RulesConfig: {"slots": True},
    BoardLayout: {"slots": True},
    Board: {"eq": False},
    Topology: {"eq": False},
    Clock: {"slots": True},
    Outcome: {"slots": True},
    JailLimits: {},
}


def stdlib_twin(cls: type) -> Any:
    """The same class as ``dataclass(frozen=True, **OPTIONS[cls])`` makes it."""
    names = field_names(cls)
    defaults = cls.__init__.__defaults__ or ()
    kept = {
        k: v
        for k, v in vars(cls).items()
        if k not in _GENERATED and k not in ("__dict__", "__weakref__", *names)
    }
    kept |= dict(zip(names[len(names) - len(defaults) :], defaults, strict=True))
    return dataclasses.dataclass(frozen=True, **OPTIONS[cls])(
        type(cls.__name__, cls.__bases__, kept)
    )


TWINS = {cls: stdlib_twin(cls) for cls in OPTIONS}
SAMPLES: list[Any] = [
    Point(3),
    Point(-4, 5, "q"),
    Node("a"),
    Node("b", 2.5),
    Limits(),
    Limits(2, high=3),
    Token(7),
    RulesConfig(),
    RulesConfig(players=3, board="beginner"),  # type: ignore[arg-type]
    beginner_layout(),
    board_for(beginner_layout()),
    standard_topology(),
    Clock(1.0, 2.0),
    Clock(1.0, 2.0, game=30.0),
    Outcome(Termination.VICTORY, 1, (5, 10, 3, 2), (2, 1, 3, 4), 80),
    JailLimits(),
    JailLimits(processes=1 << 20),
]


def twin_of(value: Any) -> Any:
    return TWINS[type(value)](**{n: getattr(value, n) for n in field_names(value)})


def same_fields(a: Any, b: Any) -> bool:
    return all(getattr(a, n) is getattr(b, n) for n in field_names(a))


@pytest.mark.parametrize("cls", OPTIONS, ids=lambda c: c.__name__)
def test_class_shape_matches_the_stdlib_dataclass(cls: type) -> None:
    twin = TWINS[cls]
    assert cls.__match_args__ == twin.__match_args__  # type: ignore[attr-defined]
    assert getattr(cls, "__slots__", None) == getattr(twin, "__slots__", None)
    assert cls.__init__.__defaults__ == twin.__init__.__defaults__
    assert (cls.__eq__ is object.__eq__) == (twin.__eq__ is object.__eq__)
    assert (cls.__hash__ is object.__hash__) == (twin.__hash__ is object.__hash__)
    assert [(f.name, f.default, f.type) for f in dataclasses.fields(cls)] == [
        (f.name, f.default, f.type) for f in dataclasses.fields(twin)
    ]
    assert field_names(cls) == tuple(f.name for f in dataclasses.fields(twin))
    assert dataclasses.is_dataclass(cls) and cls.__mro__[1:] == twin.__mro__[1:]
    for name in field_names(cls):  # a slot, or (without slots) the default or nothing
        assert type(getattr(cls, name, None)) is type(getattr(twin, name, None))


@pytest.mark.parametrize("value", SAMPLES, ids=lambda v: type(v).__name__)
def test_instances_match_the_stdlib_dataclass(value: Any) -> None:
    twin = twin_of(value)
    assert repr(value) == repr(twin)
    assert hasattr(value, "__dict__") == hasattr(twin, "__dict__")
    assert value != twin  # another class: never equal, as between two dataclasses
    again = type(value)(**{n: getattr(value, n) for n in field_names(value)})
    if OPTIONS[type(value)].get("eq", True):
        assert hash(value) == hash(twin) and again == value and hash(again) == hash(value)
    else:
        assert again != value and hash(value) == object.__hash__(value)
        assert value == value and hash(twin) == object.__hash__(twin)
    if not isinstance(value, Board):  # (its asdict copies the whole topology: slow, same)
        assert dataclasses.asdict(value) == dataclasses.asdict(twin)
    if hasattr(value, "__getstate__") and "__slots__" in vars(type(value)):
        assert value.__getstate__() == twin.__getstate__()
    for clone in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert type(clone) is type(value) and repr(clone) == repr(value)
        assert clone == value or not OPTIONS[type(value)].get("eq", True)
    assert same_fields(dataclasses.replace(value), value)
    # (the stdlib's slots twin raises TypeError for "other": a CPython 3.11 bug)
    for name in (*field_names(value), "other"):
        for target in (value, twin) if name != "other" else (value,):
            with pytest.raises(
                dataclasses.FrozenInstanceError, match=f"cannot assign to field '{name}'"
            ):
                setattr(target, name, 1)
            with pytest.raises(
                dataclasses.FrozenInstanceError, match=f"cannot delete field '{name}'"
            ):
                delattr(target, name)


def test_defaults_and_post_init() -> None:
    assert Point(-2) == Point(2, 0, "p") and repr(Point(-2)) == repr(TWINS[Point](-2))
    assert RulesConfig(board="random_numbers").board is BoardSetup.RANDOM_NUMBERS  # type: ignore[arg-type]
    assert RulesConfig.from_dict(RulesConfig(players=3).to_dict()) == RulesConfig(players=3)
    assert list(RulesConfig().to_dict()) == list(field_names(RulesConfig))
    assert Limits.high == 9 and Limits().high == 9
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
        Point()  # type: ignore[call-arg]


def test_cached_property_needs_the_instance_dict() -> None:
    node = Node("n", 4.0)
    assert node.double == 8.0 and vars(node) == {"name": "n", "weight": 4.0, "double": 8.0}
    topo = standard_topology()
    assert topo.edge_between(*topo.edge_nodes[5]) == 5 and "_edge_index" in vars(topo)
    assert Topology(**topo.tables()) != topo  # (the same tables: identity equality)
    assert vars(JailLimits()) == {n: getattr(JailLimits(), n) for n in field_names(JailLimits)}


def test_what_value_class_refuses() -> None:
    class Mutable:
        items: list[int] = []  # noqa: RUF012

    class Late:
        a: int = 1
        b: int

    class WithField:
        a: int = dataclasses.field(default=1)

    with pytest.raises(ValueError, match="mutable default"):
        value_class(Mutable)
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        value_class(Late)
    with pytest.raises(TypeError, match="unsupported by value_class"):
        value_class(WithField)
    with pytest.raises(TypeError, match="unsupported by value_class"):
        value_class(type("Sub", (TWINS[Point],), {"__annotations__": {"z": "int"}}))


@dataclasses.dataclass
class OldJailReport:
    """``JailReport`` as the stdlib made it."""

    applied: dict[str, bool] = dataclasses.field(
        default_factory=lambda: dict.fromkeys(LAYERS, False)
    )
    errors: dict[str, str] = dataclasses.field(default_factory=dict)
    landlock_abi: int = 0
    elapsed_ms: float = 0.0


def test_the_jail_report_is_the_mutable_record_its_dataclass_was() -> None:
    for kwargs in ({}, {"landlock_abi": 6}, {"errors": {"seccomp": "x"}, "elapsed_ms": 1.5}):
        report, old = JailReport(**kwargs), OldJailReport(**kwargs)  # type: ignore[arg-type]
        assert repr(report) == repr(old).replace("Old", "")
        assert report.as_dict() == dataclasses.asdict(old) and report == JailReport(**kwargs)  # type: ignore[arg-type]
        assert report.__match_args__ == old.__match_args__  # type: ignore[attr-defined]
        assert report.as_dict()["applied"] is not report.applied
    a, b = JailReport(), JailReport()
    a.applied["rlimits"] = True
    assert not b.applied["rlimits"] and a != b and a != OldJailReport()
    with pytest.raises(TypeError, match="unhashable"):
        hash(a)
    assert pickle.loads(pickle.dumps(a)) == a
