"""Code the engine generates at import, compiled once per machine rather than in every process.

The value classes' methods (:mod:`engine.valueclass`), the state copier
(:mod:`engine.state`), the hand counters (:mod:`engine.observation`) and the observation
decoder's field setter (:mod:`engine.observation_stream`) are generated as source and
compiled at import: ~5 ms of every bot process's start-up on a slow day, nearly all of it
``compile``. :func:`run` takes a source's code object from a cache file in
``engine/__pycache__`` when it is there, and compiles it otherwise (the same code either
way). :func:`write_cache` writes what this process ran; the host calls it where it
byte-compiles the sources for the sandbox (``arena_runner.sandbox.botenv.compile_sources``),
so a bot reads the file like a ``.pyc``, from a folder it cannot write.
"""

from __future__ import annotations

import marshal
import os
import sys
from types import CodeType

from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

CACHE_FILE = os.path.join(
    os.path.dirname(__file__), "__pycache__", f"codegen.{sys.implementation.cache_tag}.marshal"
)
"""Where the compiled sources are kept (beside the engine's ``.pyc`` files, git-ignored)."""
_FILENAME = "<generated>"
_cached: dict[str, CodeType] | None = None
_ran: dict[str, CodeType] = {}
"""Every source this process ran, with its code object (what :func:`write_cache` saves)."""


def _magic() -> bytes:
    """This interpreter's bytecode magic number (as in a ``.pyc`` header)."""
    import _frozen_importlib_external  # loaded by every interpreter at start-up

    magic: bytes = _frozen_importlib_external.MAGIC_NUMBER
    return magic


def _load() -> dict[str, CodeType]:
    """The cache file's code objects; empty when missing, unreadable or of another Python."""
    global _cached
    if _cached is None:
        _cached = {}
        try:
            with open(CACHE_FILE, "rb") as file:
                magic, table = marshal.loads(file.read())
            if magic == _magic() and type(table) is dict:
                _cached = {s: c for s, c in table.items() if type(c) is CodeType}
        except (OSError, ValueError, EOFError, TypeError):
            pass
    return _cached


def run(source: str, globals_: dict[str, Any], locals_: dict[str, Any] | None = None) -> None:
    """``exec(source, globals_, locals_)``, with ``source`` compiled once per machine."""
    code = _load().get(source)
    if code is None:
        code = compile(source, _FILENAME, "exec", dont_inherit=True)
    _ran[source] = code
    exec(code, globals_, globals_ if locals_ is None else locals_)


def write_cache() -> bool:
    """Save the sources this process ran with those already saved (atomically); True if
    the file changed. Best effort: False when it cannot be written."""
    table = _load() | _ran
    if table.keys() == _load().keys():
        return False
    temporary = f"{CACHE_FILE}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(CACHE_FILE), exist_ok=True)
        with open(temporary, "wb") as file:
            file.write(marshal.dumps((_magic(), table)))
        os.replace(temporary, CACHE_FILE)
    except OSError:
        return False
    global _cached
    _cached = table
    return True
