"""Find a player class by built-in name or by the path of a bot file.

Built-in bots are ordinary bot files under ``bots/builtin/``: they are loaded exactly the
way an uploaded bot is, by path.
"""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

from bots.player import Player

BUILTIN_DIR = Path(__file__).resolve().parent / "builtin"
BUILTINS: dict[str, Path] = {
    "random": BUILTIN_DIR / "random_bot.py",
    "heuristic": BUILTIN_DIR / "heuristic.py",
    "search": BUILTIN_DIR / "search.py",
}


class BotLoadError(Exception):
    """A bot could not be found or loaded; the message says why in plain words."""


def resolve_bot(spec: str) -> Path:
    """The bot file for ``spec``: a built-in name (``random``) or a path to a ``.py`` file."""
    if spec in BUILTINS:
        path = BUILTINS[spec]
        if not path.is_file():
            raise BotLoadError(f"built-in bot {spec!r} is not available in this version")
        return path
    path = Path(spec)
    if path.suffix != ".py":
        names = ", ".join(sorted(BUILTINS))
        raise BotLoadError(f"unknown bot {spec!r}: use a built-in ({names}) or a .py file")
    if not path.is_file():
        raise BotLoadError(f"bot file {spec!r} does not exist")
    return path


def load_player_class(spec: str) -> type[Player]:
    """Import a bot file in this process and return its single :class:`Player` subclass."""
    path = resolve_bot(spec)
    module_name = f"catan_bot_{path.stem}_{abs(hash(path.resolve()))}"
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
        if inspect.isclass(obj)
        and issubclass(obj, Player)
        and obj is not Player
        and obj.__module__ == module.__name__
        and not inspect.isabstract(obj)
    ]
    if len(found) != 1:
        raise BotLoadError(
            f"{spec}: a bot file must define exactly one Player subclass, found {len(found)}"
        )
    return found[0]
