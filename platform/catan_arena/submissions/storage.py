"""A worker's local copy of the versions it plays, by sha256 (the database holds the
bytes, so workers on any machine share nothing but the database)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from django.conf import settings

from catan_arena.submissions.models import BotContent, BotVersion


def materialize(version: BotVersion) -> Path:
    """The version's file on this machine (``bot.py`` or ``bot.zip`` in a folder named
    by its sha256), written on first use and checked against its sha256."""
    sha = version.sha256
    folder = Path(settings.BOT_CACHE_DIR) / sha
    path = folder / f"bot.{version.kind}"
    if path.is_file() and _sha256(path) == sha:
        return path
    data = bytes(BotContent.objects.values_list("data", flat=True).get(sha256=sha))
    if hashlib.sha256(data).hexdigest() != sha:
        raise RuntimeError(f"stored content of {version} does not match its sha256")
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".part-")
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
