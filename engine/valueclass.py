"""``value_class``: what ``dataclass(frozen=True, slots=True)`` makes, built cheaply.

The engine's values (actions, rules configuration, layout, board, topology, clock,
outcome) are frozen classes. The stdlib decorator imports ``inspect`` (with ast, dis and
tokenize: about 8 ms) and compiles six methods per class (about 0.7 ms each), costs paid
at start-up by every process importing the engine, bot processes included.
:func:`value_class` builds the same classes with one small compile per class: slots or
an instance ``__dict__``, field-wise or identity equality, immutable defaults given in
the class body. Type checkers treat it as a frozen dataclass (``dataclass_transform``);
``tests/engine/test_action_classes.py`` and ``test_value_classes.py`` check the classes
against stdlib dataclass twins (init, defaults, repr, eq, hash, slots, match args,
frozenness, pickling, fields).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from engine.codegen import run
from engine.static_typing import TYPE_CHECKING, dataclass_transform, overload

if TYPE_CHECKING:
    from typing import Any, Final, TypeVar

    _C = TypeVar("_C", bound=type)
_NO_FIELDS: Final[tuple[Any, ...]] = ()
_GENERATED: Final = frozenset(
    {"__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"}
    | {"__getstate__", "__setstate__", "__match_args__", "__slots__", "__dataclass_fields__"}
)


@overload
def value_class(cls: _C, /) -> _C: ...


@overload
def value_class(*, eq: bool = True, slots: bool = True) -> Callable[[_C], _C]: ...


@dataclass_transform(frozen_default=True)
def value_class(cls: _C | None = None, /, *, eq: bool = True, slots: bool = True) -> Any:
    """``dataclass(frozen=True, eq=eq, slots=slots)``, without its cost.

    Builds the same class (``__match_args__``, an ``__init__`` with the class body's
    defaults calling ``__post_init__``, the dataclass ``__repr__``, ``FrozenInstanceError``
    on assignment; with ``eq`` field-wise ``__eq__`` and ``__hash__`` (``hash`` of the
    field tuple), else identity; with ``slots`` ``__slots__`` and pickling by field list,
    else an instance ``__dict__``, as ``functools.cached_property`` needs) with one small
    compile per class with fields. ``__dataclass_fields__`` (for ``dataclasses.fields``,
    ``asdict``, ``replace``) is built by the stdlib on first use. Only what the engine
    needs: string annotations, immutable defaults (no ``field()``), no inherited fields,
    no overridden generated methods.
    """
    if cls is None:
        return lambda c: _build(c, eq, slots)
    return _build(cls, eq, slots)


def field_names(value: object) -> tuple[str, ...]:
    """The field names of a value class or instance, in order (as ``dataclasses.fields``)."""
    names: tuple[str, ...] = value.__match_args__  # type: ignore[attr-defined]
    return names


def _build(cls: _C, eq: bool, slots: bool) -> _C:
    # (not inspect.get_annotations: inspect is a slow import for bot processes)
    annotations: dict[str, Any] = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
    names = tuple(n for n, a in annotations.items() if not str(a).startswith("ClassVar"))
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    clash = _GENERATED.intersection(cls.__dict__)
    clash |= {b.__name__ for b in cls.__mro__[1:] if "__dataclass_fields__" in vars(b)}
    clash |= {n for n, d in defaults.items() if type(d).__module__ == "dataclasses"}
    if clash or not all(isinstance(a, str) for a in annotations.values()):
        raise TypeError(f"{cls.__name__}: unsupported by value_class ({clash})")
    for name, default in defaults.items():
        if type(default).__hash__ is None:
            raise ValueError(f"mutable default {type(default)} for field {name} is not allowed")
    first = next((i for i, n in enumerate(names) if n in defaults), len(names))
    required = [n for n in names[first:] if n not in defaults]
    if required:
        raise TypeError(f"non-default argument {required[0]!r} follows default argument")
    dropped = {"__dict__", "__weakref__", *(defaults if slots else ())}
    namespace = {k: v for k, v in cls.__dict__.items() if k not in dropped}
    post_init = hasattr(cls, "__post_init__")
    namespace.update(_value_methods(cls.__qualname__, names, defaults, post_init, eq, slots))
    namespace["__match_args__"] = names
    if slots:
        namespace["__slots__"] = names
    namespace["__dataclass_fields__"] = _LazyDataclassFields(annotations, defaults)
    new_cls: _C = type(cls)(cls.__name__, cls.__bases__, namespace)
    new_cls.__qualname__ = cls.__qualname__
    namespace["__setattr__"].owner = namespace["__delattr__"].owner = new_cls
    return new_cls


def _value_methods(
    qualname: str,
    names: tuple[str, ...],
    defaults: dict[str, Any],
    post_init: bool,
    eq: bool,
    slots: bool,
) -> dict[str, Any]:
    values: Callable[[Any], tuple[Any, ...]]
    methods: dict[str, Any] = {}
    if not names:
        values = _no_fields
        if eq:
            methods = {"__eq__": _eq_no_fields, "__hash__": _hash_no_fields}
    else:
        # __init__, __eq__ and __hash__ as the stdlib generates them (same speed)
        own = "".join(f"self.{n}," for n in names)
        other = "".join(f"other.{n}," for n in names)
        params = ", ".join(f"{n}=_defaults[{n!r}]" if n in defaults else n for n in names)
        sets = "".join(f"    _set(self, {n!r}, {n})\n" for n in names)
        source = f"def __init__(self, {params}):\n{sets}"
        source += "    self.__post_init__()\n" if post_init else ""
        if eq:
            source += (
                "def __eq__(self, other):\n    if other.__class__ is self.__class__:\n"
                + f"        return ({own}) == ({other})\n    return NotImplemented\n"
                + f"def __hash__(self):\n    return hash(({own}))\n"
            )
        run(source, {"_set": object.__setattr__, "_defaults": defaults}, methods)
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

    methods |= {"__repr__": __repr__, "__setattr__": __setattr__, "__delattr__": __delattr__}
    if slots:

        def __getstate__(self: Any) -> list[Any]:
            return list(values(self))

        def __setstate__(self: Any, state: list[Any]) -> None:
            for name, value in zip(names, state, strict=False):
                object.__setattr__(self, name, value)

        methods |= {"__getstate__": __getstate__, "__setstate__": __setstate__}
    return methods


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
    """The stdlib's ``__dataclass_fields__`` of a value class, made on first access."""

    def __init__(self, annotations: dict[str, Any], defaults: dict[str, Any]) -> None:
        self.annotations = annotations
        self.defaults = defaults

    def __get__(self, obj: object, owner: type) -> dict[str, Any]:
        import dataclasses

        fields = owner.__match_args__  # type: ignore[attr-defined]
        # only the fields annotated: a string "ClassVar[...]" is not recognised by the stdlib
        # in a module without typing's ClassVar (engine.static_typing), so class variables
        # are given as plain class attributes
        annotations = {n: a for n, a in self.annotations.items() if n in fields}
        namespace = {"__annotations__": annotations, "__module__": owner.__module__}
        namespace.update((n, getattr(owner, n)) for n in self.annotations if n not in fields)
        namespace.update(self.defaults)
        twin: Any = dataclasses.dataclass(frozen=True)(type(owner.__name__, (), namespace))
        table: dict[str, Any] = twin.__dataclass_fields__
        type.__setattr__(owner, "__dataclass_fields__", table)
        return table
