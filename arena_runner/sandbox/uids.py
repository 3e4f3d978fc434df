"""A pool of sandbox uids: every bot process gets a uid of its own, so no two seats share
per-user kernel limits (inotify instances, pipe-buffer quota, process counts) or can
signal each other on the grounds of a shared uid.

Uids are claimed with ``flock``-ed lock files (released by the kernel if a worker dies),
so concurrent workers on one host never hand out the same uid. The pool is
``$CATAN_SANDBOX_UIDS`` (``FIRST-LAST``), 64000-64255 by default: uids no account on the
host should use.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arena_runner.env import EnvError, env_path, raw

ENV_POOL = "CATAN_SANDBOX_UIDS"
DEFAULT_POOL = range(64000, 64256)
ENV_LOCK_DIR = "CATAN_UID_LOCK_DIR"


def pool() -> range:
    """The configured uid range (``ValueError`` naming the variable if malformed)."""
    value = raw(ENV_POOL)
    if value is None:
        return DEFAULT_POOL
    try:
        first, last = (int(part) for part in value.split("-", 1))
    except ValueError:
        raise EnvError(f"{ENV_POOL}={value!r}: expected FIRST-LAST, e.g. 64000-64255") from None
    if not 1000 <= first <= last < 2**31:
        raise EnvError(f"{ENV_POOL}={value!r}: a range of unprivileged uids, FIRST <= LAST")
    return range(first, last + 1)


def lock_dir() -> Path:
    return env_path(ENV_LOCK_DIR, Path(tempfile.gettempdir(), "catan-arena-uids"))


@dataclass
class UidClaim:
    """One claimed uid; :meth:`release` once nothing of the bot is left running."""

    uid: int
    _fd: int | None

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the file drops the lock
            self._fd = None


def claim_uid(uids: range | None = None) -> UidClaim:
    """Claim a free uid of ``uids`` (the pool by default; ``OSError`` when every one is
    in use)."""
    directory = lock_dir()
    directory.mkdir(mode=0o755, exist_ok=True)
    uids = pool() if uids is None else uids
    for uid in uids:
        fd = os.open(directory / f"uid{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        return UidClaim(uid, fd)
    raise OSError(f"every sandbox uid of {uids} is in use ({ENV_POOL} sets the pool)")
