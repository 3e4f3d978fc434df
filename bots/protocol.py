"""The bot process protocol: versioned messages between the platform and a bot.

Every bot runs in its own child process (``python -I -m bots.runtime BOT_FILE``). The
host (the match runner) writes one message per frame to the child's stdin; the child
answers each with exactly one line of JSON on its stdout. Messages are objects with a
``"type"``; unknown extra fields are ignored, missing or ill-typed fields are an error.
Both sides validate every message with :func:`parse_host_message` and
:func:`parse_child_message`.

Protocol version 4 (:data:`PROTOCOL_VERSION`)
=============================================

Host to child, a message is a *frame*: its length in 4 bytes (big-endian), then the
message in :mod:`marshal` form (:func:`encode_host`, :func:`read_host_message`). Only
the child reads marshal, and only from the trusted host: the host never reads it. The
child answers in JSON lines, which the host parses as untrusted data. Version 4 made the
host's side marshal (version 3 wrote JSON lines both ways): a bot process then imports
no third-party JSON library (orjson's import pulls in ``dataclasses``, ``inspect``,
``uuid`` and ``datetime``: ~15% of a sandboxed bot's start), for a few µs more of codec
work a decision (marshal writes slower than orjson, and reads a little slower).

Observations travel in the compact stream form of :mod:`engine.observation_stream`:
each one carries only what changed since the seat's previous observation of the same
game, with actions (legal actions, history steps) as numbers in an action table that
both sides build up during the game. A ``start`` begins a new stream.

Every host message carries a ``"seq"``, a fresh random number, and the child's reply to
it must carry the same ``"seq"``: each prompt is matched to its own reply. A reply with
another ``seq`` (written ahead of its prompt, or left over from an earlier one) or one
nobody asked for is a fault, and the bot process is replaced (version 3).

Host to child:

``{"type": "start", "protocol_version": 3, "seat": 0, "config": {...}, "board": {...},
"seed": 123, "observation": {...}}``
    A new game. ``config`` is ``RulesConfig.to_dict()``, ``board`` is
    ``BoardLayout.to_dict()``, ``seed`` seeds the bot's own ``random.Random`` (handed to
    the player's constructor), ``observation`` is the seat's view before the first
    decision (passed to ``on_game_start``; the first of the stream, so every field is in
    it). Reply: ``ready`` (or ``error``). A ``start`` may follow an ``end`` to play
    another game in the same process. A *blank* sandbox (runtime started with
    ``--deferred`` before its bot was chosen) gets the bot file to import in an extra
    ``"bot"`` field of its first ``start``; an import failure is then the reply.

``{"type": "act", "observation": {...}}``
    The seat must decide. ``observation`` is the next of the stream, with its ``"clock"``
    (the thinking time) and ``"legal"`` (the legal actions as table numbers). Reply:
    ``action`` (or ``error``).

``{"type": "end", "observation": {...}, "outcome": {...}}``
    The game is over; ``outcome`` is ``Outcome.to_dict()``. Reply: ``bye`` (or ``error``).

Closing the child's stdin asks it to exit.

Child to host:

``{"type": "sandbox", "jail": {"applied": {"seccomp": true, ...}, ...}}``
    Sent once per process, unasked, right after the runtime hardened itself
    (``bots.jail``) and BEFORE the bot file is imported: ``jail`` is the
    ``JailReport`` (null when the process was not configured for hardening). The host
    checks the applied layers against the sandbox tier; a process that dies before this
    line is a platform fault, after it the bot's.

``{"type": "ready", "protocol_version": 3, "name": "my-bot"}``
    The bot file was imported, its single ``Player`` subclass built and
    ``on_game_start`` returned.

``{"type": "action", "action": 7}`` or ``{"type": "action", "action": {"type": ...}}``
    The decision: a number of the action table (one of the legal ones, usually) or any
    action in the action JSON form of ``engine.actions`` (a trade offer of its own).

``{"type": "error", "where": "import|start|act|end", "message": "...",
"traceback": "..."}``
    The bot failed: importing its file, starting, deciding (an exception, or ``act``
    returned something that is not an ``Action``) or ending. ``traceback`` may be null.
    After an ``import`` error the child exits.

``{"type": "bye"}``
    ``on_game_end`` returned.

A reply may be at most :data:`MAX_REPLY_BYTES` long. Anything a bot prints goes to the
child's stderr (kept in a capped log), never into the protocol stream.
"""

from __future__ import annotations

import marshal
import math

from engine import Outcome, Termination
from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, BinaryIO, Final, TypeAlias

PROTOCOL_VERSION: Final = 4
MAX_REPLY_BYTES: Final = 1 << 20
"""Longest child message (one line, newline included) the host accepts."""
FRAME_HEADER: Final = 4
"""Bytes of a host message's length prefix (big-endian)."""
MARSHAL_VERSION: Final = 2
"""The marshal format of host messages: version 2 keeps no back-references, so the host
writes a prompt in about two thirds of the default version's time (still about twice
orjson's)."""
ERROR_PLACES: Final = ("import", "start", "act", "end")

Message: TypeAlias = "dict[str, Any]"

_INT = (int,)
_STR = (str,)
_DICT = (dict,)
_HOST_FIELDS: Final[dict[str, dict[str, tuple[type, ...]]]] = {
    "start": {
        "protocol_version": _INT,
        "seat": _INT,
        "config": _DICT,
        "board": _DICT,
        "seed": _INT,
        "observation": _DICT,
        "seq": _INT,
    },
    "act": {"observation": _DICT, "seq": _INT},
    "end": {"observation": _DICT, "outcome": _DICT, "seq": _INT},
}
_CHILD_FIELDS: Final[dict[str, dict[str, tuple[type, ...]]]] = {
    "sandbox": {"jail": (dict, type(None))},
    "ready": {"protocol_version": _INT, "name": _STR, "seq": _INT},
    "action": {"action": (dict, int), "seq": _INT},
    "error": {"where": _STR, "message": _STR, "traceback": (str, type(None)), "seq": _INT},
    "bye": {"seq": _INT},
}


_OBJECT: Final = {"bot": "a JSON object", "host": "a dict"}
"""What a message is, by the side that wrote it (the bot's JSON, the host's marshal)."""


class ProtocolError(ValueError):
    """A message is not valid protocol JSON; the text says what is wrong."""


# --- bot-supplied text -------------------------------------------------------------------

TEXT_LIMITS: Final[dict[str, int]] = {"message": 2_000, "traceback": 8_000, "name": 64}
"""The longest bot-supplied strings kept, by field (longer ones are clipped)."""
_UNSAFE_CHARS: Final[dict[int, None]] = dict.fromkeys(
    [
        *(c for c in range(0x20) if c not in (0x09, 0x0A)),  # C0 controls (NUL, ESC...)
        *range(0x7F, 0xA0),  # DEL and C1 controls (CSI 0x9B...)
        *range(0x202A, 0x202F),  # bidirectional overrides
        *range(0x2066, 0x206A),  # bidirectional isolates
    ]
)


_CLIPPED: Final = "...(clipped)"


def clean_text(text: str, limit: int | None = None) -> str:
    """Bot-supplied text made safe to store and show: no NUL (PostgreSQL refuses it in
    text and jsonb), no control characters or terminal escapes (ESC, CSI; tabs and
    newlines stay), no bidirectional overrides, no lone surrogates; clipped to
    ``limit`` characters with a marker."""
    text = text.encode("utf-8", "replace").decode("utf-8").translate(_UNSAFE_CHARS)
    if limit is not None and len(text) > limit:
        text = text[: limit - len(_CLIPPED)] + _CLIPPED
    return text


# --- constructors ------------------------------------------------------------------------


def start_message(
    seat: int,
    config: dict[str, Any],
    board: dict[str, Any],
    seed: int,
    observation: Message,
    bot: str | None = None,
) -> Message:
    """Host: begin a game in ``seat`` (a blank sandbox: importing ``bot`` first)."""
    extra = {} if bot is None else {"bot": bot}
    return extra | {
        "type": "start",
        "protocol_version": PROTOCOL_VERSION,
        "seat": seat,
        "config": config,
        "board": board,
        "seed": seed,
        "observation": observation,
    }


def act_message(observation: Message) -> Message:
    """Host: ask for a decision."""
    return {"type": "act", "observation": observation}


def end_message(observation: Message, outcome: Message) -> Message:
    """Host: the game is over."""
    return {"type": "end", "observation": observation, "outcome": outcome}


def sandbox_message(jail: Message | None) -> Message:
    """Child: hardened (``jail`` is the ``JailReport`` as a dict), about to import the bot."""
    return {"type": "sandbox", "jail": jail}


def ready_message(name: str) -> Message:
    """Child: started."""
    return {"type": "ready", "protocol_version": PROTOCOL_VERSION, "name": name}


def action_message(action: Message | int) -> Message:
    """Child: the decision (an action table number, or action JSON)."""
    return {"type": "action", "action": action}


def error_message(where: str, message: str, traceback: str | None = None) -> Message:
    """Child: the bot failed at ``where`` (one of :data:`ERROR_PLACES`)."""
    return {"type": "error", "where": where, "message": message, "traceback": traceback}


def bye_message() -> Message:
    """Child: ``on_game_end`` returned."""
    return {"type": "bye"}


# --- encoding and validation -------------------------------------------------------------


def encode(message: Message) -> bytes:
    """One child-to-host line (JSON plus a newline). The usual reply, an action number,
    is written directly in the exact form :func:`_usual_action` reads; any other message
    as :func:`json_text` (strings as UTF-8, a lone surrogate replaced), or by the stdlib
    encoder where it holds something else."""
    if len(message) == 3 and message.get("type") == "action":
        action, seq = message.get("action"), message.get("seq")
        if type(action) is int and type(seq) is int and action >= 0 and seq >= 0:
            return _USUAL_REPLY % (action, seq)
    try:
        text = json_text(message)
    except TypeError:
        import json  # an unusual value: the stdlib's encoder, imported when first needed

        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8", "replace") + b"\n"


_JSON_ESCAPES: Final = {
    **{code: f"\\u{code:04x}" for code in range(0x20)},
    **{ord(c): "\\" + e for c, e in zip("\b\t\n\f\r", "btnfr", strict=True)},
    ord('"'): '\\"',
    ord("\\"): "\\\\",
}
"""What a JSON string escapes, as ``json.dumps`` does: the quote, the backslash and control
characters."""


def json_text(value: object) -> str:
    """Compact JSON of the runtime's own messages (None, booleans, integers, finite
    floats, strings, lists, tuples and dicts with string keys), as ``json.dumps`` with
    ``ensure_ascii=False`` writes them, without importing :mod:`json`: with ``re`` it is
    ~5 ms of every bot's start-up, whose two first messages (``sandbox``, ``ready``) are
    not the usual reply. ``TypeError`` for anything else (a NaN or an infinity too)."""
    if type(value) is str:
        return '"' + value.translate(_JSON_ESCAPES) + '"'
    if value is None or type(value) is bool:
        return "null" if value is None else "true" if value else "false"
    if type(value) is int:
        return int.__repr__(value)
    if type(value) is float and math.isfinite(value):
        return float.__repr__(value)
    if type(value) is list or type(value) is tuple:
        return "[" + ",".join(map(json_text, value)) + "]"
    if type(value) is dict and all(type(key) is str for key in value):
        return "{" + ",".join(json_text(k) + ":" + json_text(v) for k, v in value.items()) + "}"
    raise TypeError(f"not a JSON value of the runtime's: {type(value).__name__}")


def encode_host(message: Message) -> bytes:
    """One host-to-child frame: the payload's length, then the message in marshal form."""
    payload = marshal.dumps(message, MARSHAL_VERSION)
    return len(payload).to_bytes(FRAME_HEADER, "big") + payload


def read_host_message(stream: BinaryIO) -> Message | None:
    """Child: the next host message from ``stream`` (a buffered reader), validated; None
    when the host closed the stream between messages. Raise :class:`ProtocolError` for a
    truncated frame or a payload that is not a host message."""
    header = stream.read(FRAME_HEADER)
    if not header:
        return None
    size = int.from_bytes(header, "big")
    if len(header) < FRAME_HEADER or len(payload := stream.read(size)) < size:
        raise ProtocolError("the host's message ends before its frame does")
    return parse_host_message(payload)


def decode(line: bytes) -> Any:
    """Parse one line of JSON; raise :class:`ProtocolError` if it is not JSON."""
    import orjson  # the host's side only: a bot process never imports it (see the module)

    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise ProtocolError(f"not valid JSON: {exc}") from None


class _DuplicateKey(ValueError):
    pass


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict, refusing a key given twice."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise _DuplicateKey(twice)
    return data


def _quotes(data: Any) -> int:
    """The quote characters ``data`` takes in JSON without escapes: two per key and
    per string."""
    if isinstance(data, str):
        return 2
    if isinstance(data, dict):
        return sum(2 + _quotes(v) for v in data.values())
    if isinstance(data, list):
        return sum(_quotes(v) for v in data)
    return 0


def refuse_duplicate_keys(line: bytes, data: Any) -> None:
    """Raise :class:`ProtocolError` if an object of ``line`` (``data``: what
    :func:`decode` made of it) names a key twice. orjson keeps the last silently, so
    what a bot meant would be ambiguous. A line with exactly the quotes ``data``
    accounts for has no dropped key (the usual reply: a few µs); any other (escaped
    quotes, or a key dropped) is read again by the stdlib parser, which sees every pair."""
    try:
        if line.count(b'"') == _quotes(data):
            return
    except RecursionError:
        pass
    import json  # the host's side (already imported there): a bot process never needs it

    try:
        json.loads(line, object_pairs_hook=_unique_pairs)
    except _DuplicateKey as exc:
        raise ProtocolError(f"the key {str(exc)[:40]!r} is given twice in one object") from None
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"not valid JSON: {exc}") from None


def parse_host_message(payload: bytes) -> Message:
    """Decode and validate a host-to-child frame's payload (marshal)."""
    try:
        data = marshal.loads(payload)
    except (EOFError, ValueError, TypeError) as exc:
        raise ProtocolError(f"not a marshalled message: {exc}") from None
    return check_message(data, _HOST_FIELDS, "host")


_ACTION_HEAD: Final = b'{"type":"action","action":'
_SEQ_KEY: Final = b',"seq":'
_ACTION_TAIL: Final = b"}\n"
_USUAL_REPLY: Final = _ACTION_HEAD + b"%d" + _SEQ_KEY + b"%d" + _ACTION_TAIL
"""The usual reply as the bot writes it (:func:`encode`) and the host reads it fast."""


def _plain_number(digits: bytes) -> bool:
    """True for a JSON number that is a plain non-negative integer of at most 18 digits
    (ASCII digits, no leading zero)."""
    return 0 < len(digits) <= 18 and digits.isdigit() and (digits[0] != 48 or len(digits) == 1)


def _usual_action(line: bytes) -> Message | None:
    """The usual reply, ``{"type":"action","action":N,"seq":S}`` exactly as the runtime
    writes it, read without a JSON parser (a third of the µs); None for any other line."""
    if not (line.startswith(_ACTION_HEAD) and line.endswith(_ACTION_TAIL)):
        return None
    number, key, seq = line[len(_ACTION_HEAD) : -len(_ACTION_TAIL)].partition(_SEQ_KEY)
    if not (key and _plain_number(number) and _plain_number(seq)):
        return None
    return {"type": "action", "action": int(number), "seq": int(seq)}


def parse_child_message(line: bytes) -> Message:
    """Decode and validate a child-to-host line (a key given twice is refused). Only the
    message's own fields are kept, and every string in them is cleaned
    (:func:`clean_text`): what a bot writes is data."""
    usual = _usual_action(line)
    if usual is not None:
        return usual
    message = check_message(decode(line), _CHILD_FIELDS, "bot")
    refuse_duplicate_keys(line, message)
    if message["type"] == "error" and message["where"] not in ERROR_PLACES:
        raise ProtocolError(f"error 'where' must be one of {', '.join(ERROR_PLACES)}")
    kept = {"type": message["type"]}
    for name in _CHILD_FIELDS[message["type"]]:
        value = message[name]
        kept[name] = clean_text(value, TEXT_LIMITS.get(name)) if isinstance(value, str) else value
    return kept


def check_message(data: Any, fields: dict[str, dict[str, tuple[type, ...]]], side: str) -> Message:
    """Check ``data`` is a message of a known type with the required, well-typed fields."""
    if not isinstance(data, dict):
        raise ProtocolError(f"a {side} message must be {_OBJECT[side]}, not {_json_kind(data)}")
    kind = data.get("type")
    if kind not in fields:
        names = ", ".join(fields)
        raise ProtocolError(f"unknown {side} message type {kind!r} (expected one of {names})")
    for name, types in fields[kind].items():
        if name not in data:
            raise ProtocolError(f"{kind} message lacks {name!r}")
        value = data[name]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ProtocolError(f"{kind} message: {name!r} is {_json_kind(value)}")
    return data


def outcome_from_dict(data: Any) -> Outcome:
    """Rebuild an :class:`~engine.Outcome` from ``Outcome.to_dict()``; raise ProtocolError."""
    try:
        winner = data["winner"]
        return Outcome(
            termination=Termination[data["termination"].upper()],
            winner=None if winner is None else int(winner),
            points=tuple(int(p) for p in data["points"]),
            placings=tuple(int(p) for p in data["placings"]),
            turns=int(data["turns"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ProtocolError(f"malformed outcome: {type(exc).__name__}: {exc}") from None


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object" if isinstance(value, dict) else type(value).__name__
