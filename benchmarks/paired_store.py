"""Stored results of :mod:`benchmarks.paired_inprocess`, so a baseline is played once.

A bot's in-process games replay from the seed alone (clocks frozen, samples capped), so a
game's result is a fact of the code that played it. The store keeps, per bot and sample
cap, each seed's (won, points) under a fingerprint of that code: every ``.py`` file under
``bots/`` and ``engine/``, and the bot file's own folder. Any change there starts a new
record; a later run with the same code plays only the seeds not yet stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from bots.registry import resolve_bot

ROOT: Final = Path(__file__).resolve().parents[1]
CODE_DIRS: Final = ("bots", "engine")
"""Folders (under the repository) whose Python files every bot's games depend on."""

Row = tuple[int, int, int]
"""(seed, 1 if the candidate won, its points): a row of ``paired_inprocess.play``."""


def _py_files(folder: Path) -> Iterable[Path]:
    return (p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def fingerprint(spec: str, samples: int) -> str:
    """A digest of the code that plays ``spec``'s games with ``samples`` a decision."""
    path = resolve_bot(spec)
    folder = path if path.is_dir() else path.parent
    files = {p.resolve() for d in CODE_DIRS for p in _py_files(ROOT / d)}
    files |= {p.resolve() for p in _py_files(folder)}
    digest = hashlib.sha256(f"{spec}\0{samples}\0".encode())
    for file in sorted(files):
        digest.update(str(file).encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


class Store:
    """Rows by seed for one fingerprint, in ``folder/<fingerprint>.json``."""

    def __init__(self, folder: Path, spec: str, samples: int) -> None:
        self.file = folder / f"{fingerprint(spec, samples)}.json"
        self.rows: dict[int, Row] = {}
        if self.file.exists():
            stored = json.loads(self.file.read_text())
            self.rows = {
                int(seed): (int(seed), won, points) for seed, (won, points) in stored.items()
            }

    def missing(self, seeds: Iterable[int]) -> list[int]:
        return [s for s in seeds if s not in self.rows]

    def add(self, rows: Iterable[Row]) -> None:
        for row in rows:
            self.rows[row[0]] = row
        self.file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.file.with_suffix(".tmp")
        tmp.write_text(json.dumps({s: [w, p] for s, w, p in sorted(self.rows.values())}))
        tmp.replace(self.file)

    def take(self, seeds: Iterable[int]) -> list[Row]:
        return [self.rows[s] for s in seeds]
