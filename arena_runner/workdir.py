"""The per-runner temporary directory holding each bot's seat (copy of the bot + tmp)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from arena_runner.env import env_path

ENV_WORKDIR = "CATAN_SANDBOX_WORKDIR"
"""Parent of the work dirs (default: the system temp dir); must be searchable by others."""


def make_workdir() -> Path:
    """A fresh ``catan-match-*`` dir (mode 0711) whose parents the sandbox uid can search."""
    parent = env_path(ENV_WORKDIR, tempfile.gettempdir()).absolute()
    path = Path(tempfile.mkdtemp(prefix="catan-match-", dir=parent))
    path.chmod(0o711)
    return path


def remove_workdir(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def disk_usage(path: Path, *, max_entries: int = 10_000) -> int:
    """Bytes of disk that the files below ``path`` take (allocated blocks, so a sparse
    file costs what it really holds); a tree of more than ``max_entries`` entries counts
    as unbounded. Unreadable or vanishing entries are skipped."""
    total, entries, stack = 0, 0, [path]
    while stack:
        try:
            scan = os.scandir(stack.pop())
        except OSError:
            continue
        with scan:
            for entry in scan:
                entries += 1
                if entries > max_entries:
                    return 1 << 62
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(Path(entry.path))
                    else:
                        total += entry.stat(follow_symlinks=False).st_blocks * 512
                except OSError:
                    continue
    return total
