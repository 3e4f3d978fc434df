"""The one strict reader of environment variables, for the platform's settings and the
runner alike (no Django here): a value it refuses raises :class:`EnvError`, whose message
names the variable and what it accepts, so a typo stops start-up instead of meaning
something else.

An unset or empty variable means its default. Booleans are exactly the words of
:data:`BOOLEAN_WORDS`, in any case. Numbers are whole (``env_int``) or decimal
(``env_float``, finite), within the bounds the caller gives.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path

BOOLEAN_WORDS: dict[str, bool] = {
    "true": True,
    "false": False,
    "1": True,
    "0": False,
    "yes": True,
    "no": False,
    "on": True,
    "off": False,
}
"""Every spelling a boolean variable accepts (any case), and what it means."""


class EnvError(ValueError):
    """An environment variable set to a value its reader refuses."""


def raw(name: str) -> str | None:
    """The variable's value without surrounding blanks; None when unset or empty."""
    value = os.environ.get(name, "").strip()
    return value or None


def env_str(name: str, default: str) -> str:
    return raw(name) or default


def env_path(name: str, default: Path | str) -> Path:
    return Path(raw(name) or default)


def env_bool(name: str, default: bool) -> bool:
    value = raw(name)
    if value is None:
        return default
    try:
        return BOOLEAN_WORDS[value.lower()]
    except KeyError:
        words = ", ".join(BOOLEAN_WORDS)
        raise EnvError(f"{name}={value!r} is not a boolean (use one of: {words})") from None


def env_choice(name: str, default: str, choices: Iterable[str]) -> str:
    """One of ``choices`` (compared in upper case, returned as listed)."""
    value = raw(name)
    if value is None:
        return default
    allowed = list(choices)
    for choice in allowed:
        if value.upper() == choice.upper():
            return choice
    raise EnvError(f"{name}={value!r} is not one of: {', '.join(allowed)}")


def env_int(
    name: str, default: int, *, at_least: int | None = None, at_most: int | None = None
) -> int:
    value = raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise EnvError(f"{name}={value!r} is not a whole number") from None
    _bounded(name, number, at_least, at_most)
    return number


def env_float(
    name: str,
    default: float,
    *,
    at_least: float | None = None,
    above: float | None = None,
    at_most: float | None = None,
) -> float:
    """A finite decimal number; ``above``: strictly greater than (0: positive)."""
    value = raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise EnvError(f"{name}={value!r} is not a number") from None
    if not math.isfinite(number):
        raise EnvError(f"{name}={value!r} is not a finite number")
    if above is not None and not number > above:
        bound = "positive" if above == 0 else f"more than {above:g}"
        raise EnvError(f"{name}={number:g} must be {bound}")
    _bounded(name, number, at_least, at_most)
    return number


def _bounded(name: str, number: float, at_least: float | None, at_most: float | None) -> None:
    if at_least is not None and number < at_least:
        raise EnvError(f"{name}={number:g} must be at least {at_least:g}")
    if at_most is not None and number > at_most:
        raise EnvError(f"{name}={number:g} must be at most {at_most:g}")
