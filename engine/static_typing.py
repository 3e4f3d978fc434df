"""The :mod:`typing` names that modules a bot process imports need at run time, without
importing :mod:`typing` (with ``re``, ``contextlib`` and ``warnings``, ~4 ms of every bot's
start-up on a slow day).

Type checkers see the real ``typing`` names. At run time ``TYPE_CHECKING`` is false and
the decorators are the identity: those modules' annotations are strings (``from
__future__ import annotations``), so the other ``typing`` names they use are imported
under ``if TYPE_CHECKING:`` only. ``tests/bots/test_startup_imports.py`` keeps ``typing``
out of a bot process.
"""

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import dataclass_transform as dataclass_transform
    from typing import overload as overload
else:

    def overload(func):
        """``typing.overload`` for type checkers; the identity at run time."""
        return func

    def dataclass_transform(**_parameters):
        """``typing.dataclass_transform`` for type checkers; the identity at run time."""
        return overload
