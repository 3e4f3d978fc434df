"""A capped, thread-fed log of what a bot process writes to stderr."""

from __future__ import annotations

import fcntl
import os
import select
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

    def write(self, data: bytes) -> None:
        with self._lock:
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


CHUNK = 1 << 16
POLL_SECONDS = 1.0
"""How often the pump looks up from a quiet pipe to see whether it was stopped (a
stopped process's pipe ends, which wakes it at once; this bounds a pipe a leftover
process holds open)."""


def _read(fd: int) -> bytes:
    """One chunk of what the pipe ``fd`` holds (raises BlockingIOError when empty)."""
    return os.read(fd, CHUNK)


def _wait(poller: select.poll) -> bool:
    """Wait until the pipe has something to read or ends (False: quiet for a while)."""
    try:
        return bool(poller.poll(POLL_SECONDS * 1000))
    except OSError:
        return False


def _pending(fd: int) -> int:
    """Bytes waiting in the pipe ``fd`` (0 when it cannot tell)."""
    try:
        return int(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0])
    except OSError:
        return 0


class LogPump:
    """Copies a bot's stderr pipe ``fd`` into ``log`` on a daemon thread.

    Each read from the pipe and its write into the log happen under one lock, so no chunk
    is ever between the two where :meth:`collect` could miss it: ``collect`` takes the
    lock and reads what is still in the pipe itself. A bot writes to stderr before it
    replies, so the log collected after a reply holds all it wrote before — no waiting,
    no timing. :meth:`finish` drains the pipe to its end once the process is stopped."""

    def __init__(self, fd: int, log: CappedLog) -> None:
        self.fd = fd
        self.log = log
        self._lock = threading.Lock()
        self._open = True
        """False at end of file, on a read error, or once finished: no more reads."""
        os.set_blocking(fd, False)
        self._thread = threading.Thread(target=self._pump, name="bot-stderr", daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        poller = select.poll()
        poller.register(self.fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        while True:
            ready = _wait(poller)
            with self._lock:
                if not self._open:
                    return
                if ready:
                    self._read_once()

    def _read_once(self) -> int:
        """Move one chunk from the pipe to the log (the lock held): its size, 0 if none."""
        try:
            chunk = _read(self.fd)
        except BlockingIOError:
            return 0
        except OSError:
            chunk = b""
        if not chunk:
            self._open = False
        self.log.write(chunk)
        return len(chunk)

    def collect(self) -> None:
        """Return once everything the pipe held when called is in the log (a bot that
        keeps writing cannot hold this up: only what was there is read)."""
        with self._lock:
            left = _pending(self.fd)
            while self._open and left > 0:
                read = self._read_once()
                if not read:
                    return
                left -= read

    def finish(self, timeout: float) -> None:
        """The process is stopped: read the pipe to its end (what the bot wrote last),
        waiting at most ``timeout`` seconds for the end (a leftover process may still
        hold the pipe open), then stop reading; the caller may close ``fd`` after."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                while self._open and self._read_once() and time.monotonic() < deadline:
                    pass
                if not self._open or time.monotonic() >= deadline:
                    self._open = False
                    break
            time.sleep(0.005)
