"""``value_class``: what ``dataclass(frozen=True, slots=True)`` makes, built cheaply.

The action classes are small immutable values. The stdlib decorator compiles six
methods per class, about 0.7 ms each class: 13 ms of every bot process's start-up for
the action module alone. :func:`value_class` builds the same classes with one small
compile per class; type checkers treat it as a frozen dataclass (``dataclass_transform``)
and ``tests/engine/test_action_classes.py`` checks each action class against a stdlib
dataclass twin (init, repr, eq, hash, slots, match args, frozenness, pickling, fields).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, Final, TypeVar, dataclass_transform

_C = TypeVar("_C", bound=type)
_NO_FIELDS: Final[tuple[Any, ...]] = ()
_GENERATED: Final = frozenset(
    {"__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"}
    | {"__getstate__", "__setstate__", "__match_args__", "__slots__", "__dataclass_fields__"}
)


@dataclass_transform(frozen_default=True)
def value_class(cls: _C) -> _C:
    """``dataclass(frozen=True, slots=True)`` for the action classes, without its cost.

    The stdlib decorator compiles six methods per class (about 0.7 ms each class, 13 ms
    for the module, paid by every bot process at start-up). This builds the same class
    (slots, ``__match_args__``, an ``__init__`` calling ``__post_init__``, field-wise
    ``__eq__`` and ``__hash__`` (``hash`` of the field tuple, as the stdlib's), the
    dataclass ``__repr__``, ``FrozenInstanceError`` on assignment, pickling by field list)
    with one small compile per class with fields. ``__dataclass_fields__`` (for
    ``dataclasses.fields``/``asdict``/``replace``) is built by the stdlib on first use.
    Only what the actions need: string annotations, no defaults, no overridden methods.
    """
    # (not inspect.get_annotations: inspect is a slow import for bot processes)
    annotations: dict[str, Any] = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
    names = tuple(n for n, a in annotations.items() if not str(a).startswith("ClassVar"))
    clash = _GENERATED.intersection(cls.__dict__) | set(names).intersection(cls.__dict__)
    if clash or not all(isinstance(a, str) for a in annotations.values()):
        raise TypeError(f"{cls.__name__}: unsupported by value_class ({clash})")
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    namespace.update(_value_methods(cls.__qualname__, names, hasattr(cls, "__post_init__")))
    namespace["__slots__"] = namespace["__match_args__"] = names
    namespace["__dataclass_fields__"] = _LazyDataclassFields(annotations)
    new_cls: _C = type(cls)(cls.__name__, cls.__bases__, namespace)
    new_cls.__qualname__ = cls.__qualname__
    namespace["__setattr__"].owner = namespace["__delattr__"].owner = new_cls
    return new_cls


def _value_methods(qualname: str, names: tuple[str, ...], post_init: bool) -> dict[str, Any]:
    values: Callable[[Any], tuple[Any, ...]]
    if not names:
        values = _no_fields
        methods: dict[str, Any] = {"__eq__": _eq_no_fields, "__hash__": _hash_no_fields}
    else:
        # __init__, __eq__ and __hash__ as the stdlib generates them (same speed)
        own = "".join(f"self.{n}," for n in names)
        other = "".join(f"other.{n}," for n in names)
        sets = "".join(f"    _set(self, {n!r}, {n})\n" for n in names)
        source = (
            f"def __init__(self, {', '.join(names)}):\n{sets}"
            + ("    self.__post_init__()\n" if post_init else "")
            + "def __eq__(self, other):\n"
            + f"    if other.__class__ is self.__class__:\n        return ({own}) == ({other})\n"
            + "    return NotImplemented\n"
            + f"def __hash__(self):\n    return hash(({own}))\n"
        )
        methods = {}
        exec(source, {"_set": object.__setattr__}, methods)
        get = attrgetter(*names)
        values = (lambda obj: (get(obj),)) if len(names) == 1 else get
    for name, method in methods.items():
        method.__qualname__ = f"{qualname}.{name}"
    field_set = frozenset(names)

    def __repr__(self: Any) -> str:
        pairs = ", ".join(f"{n}={v!r}" for n, v in zip(names, values(self), strict=True))
        return f"{self.__class__.__qualname__}({pairs})"

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is __setattr__.owner or name in field_set:  # type: ignore[attr-defined]
            _frozen(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is __delattr__.owner or name in field_set:  # type: ignore[attr-defined]
            _frozen(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    def __getstate__(self: Any) -> list[Any]:
        return list(values(self))

    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            object.__setattr__(self, name, value)

    return {
        **methods,
        "__repr__": __repr__,
        "__setattr__": __setattr__,
        "__delattr__": __delattr__,
        "__getstate__": __getstate__,
        "__setstate__": __setstate__,
    }


def _no_fields(obj: Any) -> tuple[Any, ...]:
    return _NO_FIELDS


def _eq_no_fields(self: Any, other: Any) -> Any:
    return True if other.__class__ is self.__class__ else NotImplemented


def _hash_no_fields(self: Any) -> int:
    return hash(_NO_FIELDS)


def _frozen(message: str) -> None:
    from dataclasses import FrozenInstanceError

    raise FrozenInstanceError(message)


class _LazyDataclassFields:
    """The stdlib's ``__dataclass_fields__`` of an action class, made on first access."""

    def __init__(self, annotations: dict[str, Any]) -> None:
        self.annotations = annotations

    def __get__(self, obj: object, owner: type) -> dict[str, Any]:
        import dataclasses

        namespace = {"__annotations__": self.annotations, "__module__": owner.__module__}
        fields = owner.__match_args__  # type: ignore[attr-defined]
        namespace.update((n, getattr(owner, n)) for n in self.annotations if n not in fields)
        twin: Any = dataclasses.dataclass(frozen=True)(type(owner.__name__, (), namespace))
        table: dict[str, Any] = twin.__dataclass_fields__
        type.__setattr__(owner, "__dataclass_fields__", table)
        return table
