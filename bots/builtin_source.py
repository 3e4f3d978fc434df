"""A house bot's source as the platform stores it: its file, then a footer naming every
``bots.builtin`` module it imports (directly or through another) with its sha256.

A built-in bot's file imports helper modules from the installed ``bots`` package (the
``search`` bot's policy, rollouts, look for a win, ...). Its version on the ladder is keyed
by the sha256 of what is stored, so the footer makes a change to any of those helpers a
new version, as a change to the file itself is: the ratings of one version never mix two
bots. The footer is a comment at the end, so the bot's line numbers stay its file's.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

PACKAGE = "bots.builtin"
"""The package whose modules count as the bot's own code."""
FOOTER = "# The bots.builtin modules this bot imports, each with its sha256:"
"""The first line of the footer (followed by one ``#   name.py sha256`` line each)."""


def house_bot_source(path: Path) -> bytes:
    """The stored form of the built-in bot at ``path``: its bytes and the footer."""
    data = path.read_bytes()
    helpers = _helper_sources(path)
    if not helpers:
        return data
    lines = [FOOTER] + [
        f"#   {helper.name} {hashlib.sha256(helpers[helper]).hexdigest()}"
        for helper in sorted(helpers, key=lambda p: p.name)
    ]
    ending = b"" if data.endswith(b"\n") or not data else b"\n"
    return data + ending + b"\n" + "\n".join(lines).encode() + b"\n"


def house_bot_sha256(path: Path) -> str:
    """The sha256 of :func:`house_bot_source`: the built-in's version key."""
    return hashlib.sha256(house_bot_source(path)).hexdigest()


def imported_modules(path: Path) -> list[Path]:
    """Every module of :data:`PACKAGE` (files beside ``path``) that ``path`` imports,
    directly or through one of them, sorted by name; ``path`` itself left out."""
    return sorted(_helper_sources(path), key=lambda p: p.name)


def _helper_sources(path: Path) -> dict[Path, bytes]:
    """The modules :func:`imported_modules` names, each with its bytes (read once: they
    are parsed for their imports and hashed)."""
    folder, seen = path.parent, {path.resolve()}
    found: dict[Path, bytes] = {}
    pending = [path.read_bytes()]
    while pending:
        for name in _direct_imports(pending.pop()):
            module = folder / f"{name}.py"
            resolved = module.resolve()
            if resolved not in seen and module.is_file():
                seen.add(resolved)
                found[module] = module.read_bytes()
                pending.append(found[module])
    return found


def _direct_imports(source: bytes) -> set[str]:
    """Names of the :data:`PACKAGE` modules one file's ``source`` imports (anywhere in it)."""
    names: set[str] = set()
    prefix = PACKAGE + "."
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == PACKAGE:
                names.update(alias.name for alias in node.names)
            elif node.module.startswith(prefix):
                names.add(node.module[len(prefix) :].split(".")[0])
        elif isinstance(node, ast.Import):
            names.update(
                alias.name[len(prefix) :].split(".")[0]
                for alias in node.names
                if alias.name.startswith(prefix)
            )
    return names
