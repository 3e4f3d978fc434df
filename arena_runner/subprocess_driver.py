"""The driver that runs a bot file in its own child process over :mod:`bots.protocol`."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

from arena_runner.logs import DEFAULT_LOG_CAP, CappedLog, drain_into
from arena_runner.pipes import LineReader, LineTooLong, PipeClosed, PipeTimeout, write_all
from arena_runner.process import kill_bot_process, spawn_bot_process
from arena_runner.result import Fault, FaultKind
from bots.protocol import (
    MAX_REPLY_BYTES,
    PROTOCOL_VERSION,
    Message,
    ProtocolError,
    act_message,
    encode,
    end_message,
    parse_child_message,
    start_message,
)
from engine import (
    Action,
    BoardLayout,
    Clock,
    InvalidActionError,
    Observation,
    Outcome,
    RulesConfig,
    action_from_dict,
)

DEFAULT_START_TIMEOUT = 10.0
"""Seconds for importing the bot and ``on_game_start`` (the interpreter start included)."""
DEFAULT_END_TIMEOUT = 2.0
EXIT_GRACE = 1.0
"""Seconds a bot process gets to exit by itself once its stdin is closed."""


class SubprocessDriver:
    """A bot file in a child process (started by :func:`spawn_bot_process`).

    The process starts at construction (so several bots import in parallel) and is
    reused for consecutive games; after a timeout, crash or unreadable reply it is
    killed, stays dead for the rest of the game and is started afresh by the next
    ``start``."""

    def __init__(
        self,
        path: Path | str,
        *,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        end_timeout: float = DEFAULT_END_TIMEOUT,
        log_cap: int = DEFAULT_LOG_CAP,
        spawn: Callable[[Path], subprocess.Popen[bytes]] = spawn_bot_process,
    ) -> None:
        self.path = Path(path)
        self.name = self.path.stem
        self.start_timeout = start_timeout
        self.end_timeout = end_timeout
        self._spawn = spawn
        self._log = CappedLog(log_cap)
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: LineReader | None = None
        self._stderr_thread: threading.Thread | None = None
        self._seat = -1
        self._sent = 0
        self._exit_code: int | None = None
        self.launch()

    # --- process life ------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def launch(self) -> None:
        """Start a fresh bot process (raises OSError if it cannot be started)."""
        self._release(graceful=False)
        proc = self._spawn(self.path)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        os.set_blocking(proc.stdin.fileno(), False)
        self._proc = proc
        self._reader = LineReader(proc.stdout.fileno(), MAX_REPLY_BYTES)
        self._stderr_thread = drain_into(proc.stderr.fileno(), self._log)

    def close(self) -> None:
        """Ask the process to exit (stdin closed), kill it if it does not, reap it."""
        self._release(graceful=True)

    def _release(self, *, graceful: bool) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if graceful and proc.stdin is not None:
            try:
                proc.stdin.close()
                proc.wait(EXIT_GRACE)
            except (OSError, subprocess.TimeoutExpired):
                pass
        kill_bot_process(proc)
        if self._stderr_thread is not None:
            self._stderr_thread.join(EXIT_GRACE)
        if self._reader is not None:
            self._reader.close()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._reader = self._stderr_thread = None
        self._exit_code = proc.returncode

    def take_log(self) -> str:
        return self._log.take()

    # --- the protocol ------------------------------------------------------------------

    def start(
        self,
        seat: int,
        config: RulesConfig,
        layout: BoardLayout,
        seed: int,
        observation: Observation,
    ) -> Fault | None:
        self._seat = seat
        step = len(observation.history)
        if not self.alive:
            try:
                self.launch()
            except OSError as exc:
                return self._fault(step, FaultKind.CRASH, f"the bot process could not start: {exc}")
        self._sent = step
        message = start_message(
            seat, config.to_dict(), layout.to_dict(), seed, observation.to_dict(history_from=0)
        )
        reply = self._request(message, self.start_timeout, step)
        if isinstance(reply, Fault):
            return reply
        if reply["type"] != "ready":
            return self._unexpected(reply, "ready", step)
        if reply["protocol_version"] != PROTOCOL_VERSION:
            self._release(graceful=False)
            return self._fault(
                step,
                FaultKind.GARBAGE,
                f"the bot speaks protocol version {reply['protocol_version']}, "
                f"not {PROTOCOL_VERSION}",
            )
        self.name = reply["name"] or self.name
        return None

    def act(self, observation: Observation, clock: Clock) -> Action | Fault:
        step = len(observation.history)
        data = observation.to_dict(history_from=self._sent)
        data["clock"] = clock.to_dict()
        self._sent = step
        reply = self._request(act_message(data), clock.decision + clock.bank, step)
        if isinstance(reply, Fault):
            return reply
        if reply["type"] != "action":
            return self._unexpected(reply, "action", step)
        try:
            return action_from_dict(reply["action"])
        except InvalidActionError as exc:
            return self._fault(step, FaultKind.GARBAGE, f"unreadable action: {exc}")

    def end(self, observation: Observation, outcome: Outcome) -> Fault | None:
        step = len(observation.history)
        if not self.alive:
            return None
        data = observation.to_dict(history_from=self._sent)
        self._sent = step
        reply = self._request(end_message(data, outcome.to_dict()), self.end_timeout, step)
        if isinstance(reply, Fault):
            return reply
        return None if reply["type"] == "bye" else self._unexpected(reply, "bye", step)

    def _request(self, message: Message, timeout: float, step: int) -> Message | Fault:
        """Send one message and read the reply; an ``error`` reply becomes a fault."""
        proc, reader = self._proc, self._reader
        if proc is None or reader is None or proc.stdin is None:
            return self._fault(step, FaultKind.CRASH, "the bot process is not running")
        deadline = time.monotonic() + timeout
        try:
            write_all(proc.stdin.fileno(), encode(message), deadline)
            line = reader.read_line(deadline)
        except PipeTimeout:
            self._release(graceful=False)
            return self._fault(step, FaultKind.TIMEOUT, f"no reply within {timeout:.3g} s")
        except PipeClosed:
            return self._crashed(step)
        except LineTooLong:
            self._release(graceful=False)
            return self._fault(
                step, FaultKind.GARBAGE, f"a reply longer than {MAX_REPLY_BYTES} bytes"
            )
        try:
            reply = parse_child_message(line)
        except ProtocolError as exc:
            self._release(graceful=False)
            return self._fault(step, FaultKind.GARBAGE, f"unreadable reply: {exc}")
        if reply["type"] != "error":
            return reply
        if reply["where"] == "import":
            self._release(graceful=True)
        return self._fault(step, FaultKind.ERROR, reply["message"], reply["traceback"] or "")

    def _crashed(self, step: int) -> Fault:
        self._release(graceful=True)
        code = self._exit_code
        if code is not None and code < 0:
            how = f"was killed by signal {signal.Signals(-code).name}"
        else:
            how = f"exited with code {code}"
        return self._fault(step, FaultKind.CRASH, f"the bot process {how}", self._log.tail())

    def _unexpected(self, reply: Message, expected: str, step: int) -> Fault:
        self._release(graceful=False)
        message = f"expected a {expected!r} reply, got {reply['type']!r}"
        return self._fault(step, FaultKind.GARBAGE, message)

    def _fault(self, step: int, kind: FaultKind, message: str, detail: str = "") -> Fault:
        return Fault(self._seat, step, kind, message, detail)
