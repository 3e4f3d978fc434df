"""A capped, thread-fed log of what a bot process writes to stderr."""

from __future__ import annotations

import fcntl
import os
import struct
import termios
import threading
import time

from bots.protocol import clean_text

DEFAULT_LOG_CAP = 64 * 1024


class CappedLog:
    """Keeps the first and the last ``cap / 2`` bytes of a stream, counting what it drops."""

    def __init__(self, cap: int = DEFAULT_LOG_CAP) -> None:
        self._half = cap // 2
        self._head = bytearray()
        self._tail = bytearray()
        self._dropped = 0
        self._lock = threading.Lock()
        self.reads = 0
        """Chunks the pump has read (counted before they are written here)."""
        self.writes = 0

    def write(self, data: bytes) -> None:
        with self._lock:
            self.writes += 1
            room = self._half - len(self._head)
            if room > 0:
                self._head += data[:room]
                data = data[room:]
            self._tail += data
            extra = len(self._tail) - self._half
            if extra > 0:
                del self._tail[:extra]
                self._dropped += extra

    def take(self) -> str:
        """Everything kept so far, cleaned of control characters (then start afresh)."""
        with self._lock:
            text = self._head.decode(errors="replace")
            if self._dropped:
                text += f"\n[... {self._dropped} bytes dropped ...]\n"
            text += self._tail.decode(errors="replace")
            self._head, self._tail, self._dropped = bytearray(), bytearray(), 0
        return clean_text(text)

    def tail(self, lines: int = 10) -> str:
        """The last few lines, without consuming the log."""
        with self._lock:
            data = self._tail if self._dropped else self._head + self._tail
            text = data.decode(errors="replace").rstrip()
            return clean_text("\n".join(text.splitlines()[-lines:]))


def drain_into(fd: int, log: CappedLog) -> threading.Thread:
    """Start a daemon thread copying ``fd`` into ``log`` until end of file."""

    def pump() -> None:
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            log.reads += 1
            log.write(chunk)

    thread = threading.Thread(target=pump, name="bot-stderr", daemon=True)
    thread.start()
    return thread


def settle(fd: int, log: CappedLog, timeout: float = 0.25) -> None:
    """Wait until everything already in the pipe ``fd`` is in ``log``: what a bot wrote
    to stderr before its last reply then belongs to the log taken after that reply."""
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline:
        try:
            pending = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
        except OSError:
            return
        quiet = quiet + 1 if pending == 0 and log.reads == log.writes else 0
        if quiet >= 2:
            return
        time.sleep(0.0005)
