"""The child side of the bot protocol: ``python -I -m bots.runtime BOT_FILE``.

It first hardens itself as the parent configured (:func:`bots.jail.harden_from_env`:
rlimits, no_new_privs, Landlock, seccomp; exit status 70 if a required layer fails) and
reports the applied layers in a ``sandbox`` message, all before the bot is imported. It
takes the real stdin/stdout for protocol messages (see :mod:`bots.protocol`) before the
bot is imported, so a bot's ``print()`` lands on stderr and ``input()`` reads nothing. It
then answers the host's messages one by one. Whatever the bot does wrong (failing import,
exceptions, returning something that is not an action) becomes an ``error`` reply; the
loop itself never crashes on a bot's account.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
from types import TracebackType

from bots.jail import JailError, harden_from_env
from bots.player import Player
from bots.protocol import (
    PROTOCOL_VERSION,
    Message,
    ProtocolError,
    action_message,
    bye_message,
    encode,
    error_message,
    outcome_from_dict,
    read_host_message,
    ready_message,
    sandbox_message,
)
from bots.registry import BotLoadError, load_player_class
from engine import Action, BoardLayout, Observation, RulesConfig
from engine.observation_stream import ObservationDecoder
from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, BinaryIO

DEFERRED = "--deferred"
"""In place of BOT_FILE: the first ``start`` message names the bot file to import."""
MAX_MESSAGE_CHARS = 2_000
MAX_TRACEBACK_CHARS = 8_000
EXIT_JAIL_FAILED = 70


def claim_stdio() -> tuple[BinaryIO, BinaryIO]:
    """Keep private handles on the real stdin/stdout; point fd 1 and ``sys.stdout`` at
    stderr and fd 0 and ``sys.stdin`` at /dev/null."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    inp = os.fdopen(os.dup(0), "rb")
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull)  # noqa: SIM115 - replaces the process's stdin for good
    return inp, out


class BotSession:
    """Answers host messages for one bot file (several games may follow each other)."""

    def __init__(self, player_class: type[Player] | None, load_error: Message | None) -> None:
        self.player_class = player_class
        self.load_error = load_error
        self.player: Player | None = None
        self.stream: ObservationDecoder | None = None

    def handle(self, message: Message) -> Message:
        """The reply to one (already validated) host message."""
        if self.load_error is not None:
            return self.load_error
        kind = message["type"]
        if kind == "start":
            return self._start(message)
        if kind == "act":
            return self._act(message)
        return self._end(message)

    def _start(self, message: Message) -> Message:
        self.player = None
        if message["protocol_version"] != PROTOCOL_VERSION:
            return error_message(
                "start",
                f"protocol version {message['protocol_version']} is not supported "
                f"(this runtime speaks {PROTOCOL_VERSION})",
            )
        if self.player_class is None:  # a blank sandbox: the bot is named now
            bot = message.get("bot")
            if not isinstance(bot, str):
                return error_message("start", "no bot loaded: the start message must name it")
            self.player_class, self.load_error = load_bot(bot)
            if self.load_error is not None:
                return self.load_error
        assert self.player_class is not None
        try:
            config = RulesConfig.from_dict(message["config"])
            board = BoardLayout.from_dict(message["board"])
            self.stream = ObservationDecoder(config, board)
            observation = self._observation(message)
        except ValueError as exc:
            return error_message("start", f"bad start message: {exc}")
        cls = self.player_class
        try:
            player = cls(random.Random(message["seed"]))
            player.on_game_start(message["seat"], observation)
        except BaseException as exc:
            return _failure("start", "starting the bot", exc)
        self.player = player
        return ready_message(str(getattr(cls, "name", "") or cls.__name__))

    def _act(self, message: Message) -> Message:
        if self.player is None:
            return error_message("act", "asked to act before a successful start")
        try:
            observation = self._observation(message)
        except ValueError as exc:
            return error_message("act", f"bad observation from the host: {exc}")
        try:
            action = self.player.act(observation)
        except BaseException as exc:
            return _failure("act", "act()", exc)
        if not isinstance(action, Action):
            return error_message(
                "act",
                f"act() returned {_short_repr(action)} ({type(action).__name__}), "
                "not an Action: return one of observation.legal_actions",
            )
        assert self.stream is not None
        number = self.stream.number_of(action)
        if number is not None:
            return action_message(number)
        try:
            return action_message(action.to_dict())
        except BaseException as exc:
            return _failure("act", "encoding the returned action", exc)

    def _end(self, message: Message) -> Message:
        player, self.player = self.player, None
        if player is None:
            return bye_message()
        try:
            observation = self._observation(message)
            outcome = outcome_from_dict(message["outcome"])
        except ValueError as exc:
            return error_message("end", f"bad end message from the host: {exc}")
        try:
            player.on_game_end(observation, outcome)
        except BaseException as exc:
            return _failure("end", "on_game_end()", exc)
        return bye_message()

    def _observation(self, message: Message) -> Observation:
        if self.stream is None:
            raise ValueError("no game has been started")
        return self.stream.decode(message["observation"])


def _failure(where: str, doing: str, exc: BaseException) -> Message:
    text = f"{doing} raised {type(exc).__name__}: {exc}"
    return error_message(where, _clip(text, MAX_MESSAGE_CHARS), _traceback_of(exc))


def _traceback_of(exc: BaseException) -> str:
    """The traceback without this module's own frames, keeping its end if too long."""
    import traceback  # only on errors: it is a slow import for every bot's start-up

    tb: TracebackType | None = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    text = "".join(traceback.format_exception(type(exc), exc, tb))
    if len(text) > MAX_TRACEBACK_CHARS:
        text = "...(truncated)\n" + text[-MAX_TRACEBACK_CHARS:]
    return text


def _import_traceback(exc: BaseException, path: str) -> str:
    """The traceback from the bot file's first frame on (just the error and its line for
    a syntax error), without the import machinery."""
    import traceback

    target = os.path.realpath(path)
    tb: TracebackType | None = exc.__traceback__
    while tb is not None and os.path.realpath(tb.tb_frame.f_code.co_filename) != target:
        tb = tb.tb_next
    text = "".join(traceback.format_exception(type(exc), exc, tb))
    return _clip(text, MAX_TRACEBACK_CHARS)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _short_repr(value: Any) -> str:
    try:
        return _clip(repr(value), 200)
    except BaseException:
        return f"<{type(value).__name__}>"


def load_bot(path: str) -> tuple[type[Player] | None, Message | None]:
    """Import the bot file; return its player class or the ``import`` error reply."""
    try:
        return load_player_class(path), None
    except BotLoadError as exc:
        cause = exc.__cause__
        detail = None if cause is None else _import_traceback(cause, path)
        return None, error_message("import", _clip(str(exc), MAX_MESSAGE_CHARS), detail)
    except BaseException as exc:
        return None, _failure("import", "importing the bot", exc)


def serve(inp: BinaryIO, out: BinaryIO, session: BotSession) -> int:
    """Answer host messages until stdin closes (or after an import error)."""
    while True:
        try:
            message = read_host_message(inp)
        except ProtocolError as exc:
            sys.stderr.write(f"bots.runtime: bad message from the host: {exc}\n")
            return 3
        if message is None:
            return 0
        reply = session.handle(message)
        reply["seq"] = message["seq"]  # the prompt this reply answers
        out.write(encode(reply))
        out.flush()
        if session.load_error is not None:
            return 1


def main(argv: list[str] | None = None) -> int:
    """Entry point of the bot process."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write(f"usage: python -I -m bots.runtime BOT_FILE|{DEFERRED}\n")
        return 2
    try:
        report = harden_from_env()
    except JailError as exc:
        sys.stderr.write(f"bots.runtime: sandbox not set up: {exc}\n")
        return EXIT_JAIL_FAILED
    # numerical libraries a bot may import (numpy) must not start threads: the sandbox
    # denies them (clone), so their pools are pinned to one thread before any import
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"
    inp, out = claim_stdio()
    out.write(encode(sandbox_message(None if report is None else report.as_dict())))
    out.flush()
    if args[0] == DEFERRED:  # a blank sandbox, started before its bot was chosen
        return serve(inp, out, BotSession(None, None))
    player_class, load_error = load_bot(args[0])
    return serve(inp, out, BotSession(player_class, load_error))


def exit_now(code: int) -> None:
    """End the process at once with ``code``: what the bot printed is flushed, but the
    interpreter's finalization (atexit handlers, tearing down every module: several ms
    of CPU in each bot's exit, which a runner releasing a game's bots waits for) is
    skipped. Nothing of a bot process is kept after it."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):  # a stream the bot replaced, say
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    exit_now(main())
