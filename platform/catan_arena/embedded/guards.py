"""What ``manage.py serve`` checks before it starts anything: it is alone on its data
folder, and its port is free. Each refusal is one clear line."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
from pathlib import Path
from typing import IO

from catan_arena.core.errors import Unavailable


class ServeRefused(Unavailable):
    """The platform cannot start; the message says why and what to do, in one line."""


class DataFolderLock:
    """An exclusive ``flock`` on ``<data>/serve.lock`` held for the supervisor's life (the
    kernel drops it when the process dies, even by SIGKILL: no stale lock)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "serve.lock"
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        handle = open(self.path, "a+")  # noqa: SIM115 (held open while serving)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "?"
            handle.close()
            raise ServeRefused(
                f"another `make serve` (pid {holder}) is already running on the data folder "
                f"{self.path.parent}: stop it first (Ctrl-C in its terminal), or give this "
                "one its own folder with CATAN_ARENA_DATA"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None


def check_port_free(host: str, port: int) -> None:
    """Refuse a port another program (or another ``make serve``) listens on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServeRefused(
                    f"port {port} on {host} is in use by another program: stop it, or "
                    f"choose another port: make serve PORT={port + 1}"
                ) from None
            raise ServeRefused(f"cannot listen on {host}:{port}: {exc.strerror}") from None
