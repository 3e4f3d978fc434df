"""The per-runner temporary directory holding each bot's seat (copy of the bot + tmp)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

ENV_WORKDIR = "CATAN_SANDBOX_WORKDIR"
"""Parent of the work dirs (default: the system temp dir); must be searchable by others."""


def make_workdir() -> Path:
    """A fresh ``catan-match-*`` dir (mode 0711) whose parents the sandbox uid can search."""
    parent = Path(os.environ.get(ENV_WORKDIR) or tempfile.gettempdir()).absolute()
    path = Path(tempfile.mkdtemp(prefix="catan-match-", dir=parent))
    path.chmod(0o711)
    return path


def remove_workdir(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
