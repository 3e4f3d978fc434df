"""Deadline-bounded line reading and writing on raw pipe file descriptors."""

from __future__ import annotations

import contextlib
import math
import os
import select
import selectors
import time
from collections.abc import Callable


class PipeTimeout(Exception):
    """The deadline passed before the line was read or written."""


class PipeClosed(Exception):
    """The other end closed the pipe (the process exited)."""


class LineTooLong(Exception):
    """A line exceeded the size limit."""


_MAX_POLL_MS = 2**31 - 1
"""The longest wait one ``poll`` takes (a C int of milliseconds)."""


class LineReader:
    """Reads newline-terminated lines from a non-blocking file descriptor."""

    def __init__(self, fd: int, limit: int) -> None:
        os.set_blocking(fd, False)
        self._fd = fd
        self._limit = limit
        self._buffer = bytearray()
        self._poller = select.poll()
        self._poller.register(fd, select.POLLIN)

    def read_line(self, deadline: float) -> bytes:
        """The next line (with its newline) before ``deadline`` (``time.monotonic()``)."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                if end + 1 > self._limit:
                    raise LineTooLong(f"longer than {self._limit} bytes")
                line = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > self._limit:
                raise LineTooLong(f"longer than {self._limit} bytes")
            try:  # the reply is often there already (the bot ran while we wrote)
                chunk = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0 or not self._poller.poll(min(math.ceil(left * 1000), _MAX_POLL_MS)):
                    raise PipeTimeout from None
                continue
            if not chunk:
                raise PipeClosed
            self._buffer += chunk

    def has_pending(self) -> bool:
        """True if the other side wrote something not yet asked for (never blocks)."""
        if self._buffer:
            return True
        if not self._poller.poll(0):  # the usual case: no failed read, no exception
            return False
        try:
            chunk = os.read(self._fd, 1 << 16)
        except OSError:
            return False
        self._buffer += chunk
        return bool(chunk)

    def close(self) -> None:
        with contextlib.suppress(KeyError):
            self._poller.unregister(self._fd)


def _write_some(fd: int, view: memoryview) -> memoryview:
    """Write what the pipe takes now; return the rest."""
    try:
        return view[os.write(fd, view) :]
    except BlockingIOError:
        return view
    except (BrokenPipeError, ConnectionResetError):
        raise PipeClosed from None


def write_all(
    fd: int, data: bytes, deadline: float, then: Callable[[], None] | None = None
) -> None:
    """Write all of ``data`` to a non-blocking descriptor before ``deadline``; raises
    :class:`PipeTimeout` or :class:`PipeClosed`. A selector is only set up when the pipe
    is full (a message usually fits in the pipe buffer in one write). ``then`` is called
    once the first part is in the pipe (the runner thaws the reader there: woken with its
    message already waiting, it does not wake twice)."""
    view = _write_some(fd, memoryview(data))
    if then is not None:
        then()
    if not view:
        return
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_WRITE)
        while view:
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                raise PipeTimeout
            view = _write_some(fd, view)


def wait_readable(fd: int, timeout: float) -> bool:
    """Whether ``fd`` has something to read (or its end of file) within ``timeout``
    seconds; nothing is read."""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        return bool(selector.select(timeout))
