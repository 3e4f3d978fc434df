"""Find a player class by built-in name or by the path of a bot file.

Built-in bots are ordinary bot files under ``bots/builtin/``: they are loaded exactly the
way an uploaded bot is, by path.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from functools import cache

from bots.player import Player
from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    BUILTIN_DIR: Path
    BUILTINS: dict[str, Path]

_BUILTIN_FILES = {"random": "random_bot.py", "heuristic": "heuristic.py", "search": "search.py"}


@cache
def _builtins() -> tuple[Path, dict[str, Path]]:
    from pathlib import Path

    builtin_dir = Path(__file__).resolve().parent / "builtin"
    return builtin_dir, {name: builtin_dir / file for name, file in _BUILTIN_FILES.items()}


def __getattr__(name: str) -> Any:
    """``BUILTIN_DIR`` and ``BUILTINS`` (paths), made on demand: the bot process loads its
    bot by a path string and need not import pathlib (~4 ms of its start-up)."""
    if name == "BUILTIN_DIR":
        return _builtins()[0]
    if name == "BUILTINS":
        return _builtins()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class BotLoadError(Exception):
    """A bot could not be found or loaded; the message says why in plain words."""


def resolve_bot(spec: str) -> Path:
    """The bot for ``spec``: a built-in name (``random``), a ``.py`` file, a package folder
    (with its ``bot.py``) or a package ``.zip`` (see :mod:`bots.package`)."""
    from pathlib import Path

    builtins = _builtins()[1]
    if spec in builtins:
        path = builtins[spec]
        if not path.is_file():
            raise BotLoadError(f"built-in bot {spec!r} is not available in this version")
        return path
    path = Path(spec)
    if path.is_dir():
        if not (path / "bot.py").is_file():
            raise BotLoadError(f"bot folder {spec!r} has no bot.py (its entry module)")
        return path
    if path.suffix == ".zip" and path.is_file():
        return path
    if path.suffix != ".py":
        names = ", ".join(sorted(builtins))
        raise BotLoadError(
            f"unknown bot {spec!r}: use a built-in ({names}), a .py file, a folder with a "
            "bot.py, or a .zip of one"
        )
    if not path.is_file():
        raise BotLoadError(f"bot file {spec!r} does not exist")
    return path


def _bot_file(spec: str) -> str:
    """``str(resolve_bot(spec))``, without pathlib for the path of an existing ``.py`` file
    (what the bot process passes)."""
    if (
        isinstance(spec, str)
        and spec not in _BUILTIN_FILES
        and spec.endswith(".py")
        and os.path.basename(spec) != ".py"
        and os.path.isfile(spec)
    ):
        return spec
    return str(resolve_bot(spec))


def load_player_class(spec: str) -> type[Player]:
    """Import a bot file in this process and return its single :class:`Player` subclass."""
    path = _bot_file(spec)
    if os.path.isdir(path):
        path = os.path.join(path, "bot.py")
    if os.path.basename(path) == "bot.py":  # a package: its helper modules import
        folder = os.path.dirname(os.path.abspath(path))
        if folder not in sys.path:
            sys.path.insert(0, folder)
    stem = os.path.splitext(os.path.basename(path))[0]
    module_name = f"catan_bot_{stem}_{abs(hash(os.path.realpath(path)))}"
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise BotLoadError(f"cannot load {spec!r} as a Python module")
    module = importlib.util.module_from_spec(loader_spec)
    try:
        loader_spec.loader.exec_module(module)
    except Exception as exc:
        raise BotLoadError(
            f"{spec}: importing the bot failed: {type(exc).__name__}: {exc}"
        ) from exc
    found = [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type)
        and issubclass(obj, Player)
        and obj is not Player
        and obj.__module__ == module.__name__
        and not getattr(obj, "__abstractmethods__", None)  # (inspect: a slow import)
    ]
    if len(found) != 1:
        raise BotLoadError(
            f"{spec}: a bot file must define exactly one Player subclass, found {len(found)}"
        )
    return found[0]
