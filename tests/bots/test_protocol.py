"""The bot protocol: message validation on both sides, and the child's session loop
driven message by message (no process)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import protocol
from bots.protocol import (
    FRAME_HEADER,
    PROTOCOL_VERSION,
    ProtocolError,
    act_message,
    action_message,
    bye_message,
    encode,
    encode_host,
    end_message,
    error_message,
    json_text,
    outcome_from_dict,
    parse_child_message,
    parse_host_message,
    read_host_message,
    ready_message,
    start_message,
)
from bots.registry import resolve_bot
from bots.runtime import BotSession, load_bot
from engine import Clock, Game, RulesConfig
from engine.observation_stream import ObservationEncoder

CONFIG = RulesConfig()


def start_for(
    game: Game, seat: int, seed: int = 9, stream: ObservationEncoder | None = None
) -> dict[str, Any]:
    """A start message; ``stream`` (reset here) is the host's encoder for the game."""
    stream = stream or ObservationEncoder()
    stream.reset()
    observation = stream.encode(game.observe(seat, with_legal=False))
    return start_message(seat, CONFIG.to_dict(), game.layout.to_dict(), seed, observation)


def test_every_constructor_round_trips_through_its_validator() -> None:
    game = Game.new(CONFIG, 3)
    observation = ObservationEncoder().encode(game.observe(0))
    for message in (
        start_for(game, 0) | {"seq": 1},
        act_message(observation) | {"seq": 2},
        end_message(observation, {"winner": 0}) | {"seq": 3},
    ):
        assert read_host_message(io.BytesIO(encode_host(message))) == message
    for message in (
        ready_message("bot"),
        action_message({"type": "end_turn"}),
        error_message("act", "boom", "Traceback ..."),
        error_message("import", "no Player"),
        bye_message(),
    ):
        message["seq"] = 4
        assert parse_child_message(encode(message)) == message
    assert encode(bye_message()).endswith(b"\n")
    assert start_for(game, 0)["protocol_version"] == PROTOCOL_VERSION == 4


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        (b"{oops", "not valid JSON"),
        (b"null", "must be a JSON object, not null"),
        (b'{"kind": "action"}', "unknown bot message type None"),
        (b'{"type": "start"}', "unknown bot message type 'start'"),
        (b'{"type": "action"}', "action message lacks 'action'"),
        (b'{"type": "action", "action": "end"}', "'action' is a string"),
        (b'{"type": "ready", "protocol_version": 1.0, "name": "x"}', "is a number"),
        (
            b'{"type": "error", "where": "lunch", "message": "", "traceback": null, "seq": 1}',
            "where",
        ),
        (b'{"type": "error", "where": "act", "message": 3, "traceback": null}', "'message'"),
    ],
)
def test_bad_child_messages_are_explained(line: bytes, needle: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_child_message(line)
    assert needle in str(info.value)


def test_bad_host_messages_are_explained() -> None:
    with pytest.raises(ProtocolError, match="unknown host message type 'ready'"):
        parse_host_message(encode_host(ready_message("x"))[FRAME_HEADER:])
    with pytest.raises(ProtocolError, match="'seat' is a boolean"):
        game = Game.new(CONFIG, 1)
        parse_host_message(encode_host({**start_for(game, 0), "seat": True})[FRAME_HEADER:])
    with pytest.raises(ProtocolError, match="not a marshalled message"):
        parse_host_message(b"\xff garbage")
    with pytest.raises(ProtocolError, match="must be a dict, not an array"):
        parse_host_message(encode_host([1, 2])[FRAME_HEADER:])  # type: ignore[arg-type]


def test_host_frames_are_read_one_by_one_to_the_end_of_the_stream() -> None:
    game = Game.new(CONFIG, 2)
    first = start_for(game, 1) | {"seq": 7}
    second = act_message(ObservationEncoder().encode(game.observe(1))) | {"seq": 8}
    stream = io.BytesIO(encode_host(first) + encode_host(second))
    assert read_host_message(stream) == first
    assert read_host_message(stream) == second
    assert read_host_message(stream) is None  # the host closed the pipe between messages


@pytest.mark.parametrize("cut", [2, FRAME_HEADER, FRAME_HEADER + 5])
def test_a_frame_cut_short_is_refused(cut: int) -> None:
    frame = encode_host(act_message({"turn": 3}) | {"seq": 1})
    with pytest.raises(ProtocolError, match="ends before its frame"):
        read_host_message(io.BytesIO(frame[:cut]))


def test_the_usual_reply_is_written_in_the_form_the_host_reads_fastest() -> None:
    line = encode(action_message(7) | {"seq": 4294967295})
    assert line == b'{"type":"action","action":7,"seq":4294967295}\n'
    assert protocol._usual_action(line) == {"type": "action", "action": 7, "seq": 4294967295}
    # anything else goes through the JSON encoder, and the host reads it back
    for message in (action_message(-1) | {"seq": 1}, action_message(True) | {"seq": 1}):  # type: ignore[arg-type]
        assert protocol._usual_action(encode(message)) is None
        assert json.loads(encode(message)) == message


def test_a_reply_with_a_lone_surrogate_is_still_valid_utf8_json() -> None:
    line = encode(error_message("act", "bad \udc80 byte; caf\u00e9") | {"seq": 2})
    assert parse_child_message(line)["message"] == "bad ? byte; caf\u00e9"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES)
def test_the_runtimes_json_text_is_the_stdlib_encoders_byte_for_byte(value: Any) -> None:
    # the bot process writes its own messages without importing json (its start-up cost)
    expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    assert json_text(value) == expected


@pytest.mark.parametrize("value", [float("nan"), float("inf"), {1: 2}, b"x", {"a": {1}}])
def test_json_text_refuses_what_is_not_json_and_encode_falls_back_to_the_stdlib(
    value: Any,
) -> None:
    with pytest.raises(TypeError):
        json_text(value)
    if value == {1: 2}:  # the stdlib encoder takes what it can (a number key becomes text)
        assert json.loads(encode({"type": "x", "v": value})) == {"type": "x", "v": {"1": 2}}


@settings(max_examples=200, deadline=None)
@given(st.text(), st.text())
def test_start_up_and_error_messages_with_any_text_are_read_back_by_the_host(
    name: str, text: str
) -> None:
    def sent(s: str) -> str:  # what a line carries of a string: a lone surrogate replaced
        return s.encode("utf-8", "replace").decode("utf-8")

    ready = encode(ready_message(name) | {"seq": 1})
    assert json.loads(ready) == ready_message(sent(name)) | {"seq": 1}
    assert parse_child_message(ready)["type"] == "ready"
    error = encode(error_message("act", text, name) | {"seq": 3})
    assert json.loads(error) == error_message("act", sent(text), sent(name)) | {"seq": 3}
    assert parse_child_message(error)["type"] == "error"


def test_outcome_round_trips() -> None:
    game = Game.new(CONFIG, 1)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    outcome = game.outcome
    assert outcome is not None
    assert outcome_from_dict(outcome.to_dict()) == outcome
    with pytest.raises(ProtocolError, match="malformed outcome"):
        outcome_from_dict({"winner": 0})


def test_a_session_streams_history_and_matches_the_in_process_bot() -> None:
    player_class, load_error = load_bot(str(resolve_bot("random")))
    assert load_error is None and player_class is not None
    session = BotSession(player_class, None)
    game = Game.new(CONFIG, 5)
    seat = 2
    stream = ObservationEncoder()
    assert session.handle(start_for(game, seat, stream=stream)) == ready_message("random")
    twin = player_class(__import__("random").Random(9))
    sent = 0
    while not game.is_over:
        if game.decider == seat:
            observation = game.observe(seat)
            data = stream.encode(observation.with_clock(Clock(1.0, 0.0)))
            sent = len(observation.history)
            reply = session.handle(act_message(data))
            assert reply["type"] == "action", reply
            action = stream.action(reply["action"])  # a table number: it chose a legal one
            assert action == twin.act(observation)
        else:
            action = game.legal_actions()[0]
        game.apply(action)
    assert session.stream is not None
    assert len(session.stream.steps) == sent
    assert session.stream.steps == list(game.observe(seat).history)[:sent]  # masked
    outcome = game.outcome
    assert outcome is not None
    end = end_message(stream.encode(game.observe(seat)), outcome.to_dict())
    assert session.handle(end) == bye_message()
    assert session.stream.steps == list(game.observe(seat).history)


def test_bot_failures_become_error_replies(tmp_path: Path) -> None:
    bot = tmp_path / "moody.py"
    bot.write_text(
        "from bots import Player\n\n\nclass Moody(Player):\n"
        "    def on_game_start(self, seat, observation):\n"
        "        if seat == 1:\n            raise KeyError('seat')\n\n"
        "    def act(self, observation):\n        return None\n\n"
        "    def on_game_end(self, observation, outcome):\n        raise SystemExit(3)\n"
    )
    player_class, _ = load_bot(str(bot))
    session = BotSession(player_class, None)
    game = Game.new(CONFIG, 2)
    stream = ObservationEncoder()
    reply = session.handle(start_for(game, 1, stream=stream))
    assert reply["type"] == "error" and reply["where"] == "start"
    assert "KeyError" in reply["message"] and "raise KeyError" in reply["traceback"]
    assert "bots/runtime.py" not in reply["traceback"]
    assert session.handle(act_message(stream.encode(game.observe(0))))["where"] == "act"
    assert session.handle(start_for(game, 0, stream=stream))["type"] == "ready"
    reply = session.handle(act_message(stream.encode(game.observe(0))))
    assert reply["where"] == "act" and "returned None (NoneType), not an Action" in reply["message"]
    reply = session.handle(act_message({"legal": [], "actions_start": 99}))
    assert reply["where"] == "act" and "bad observation" in reply["message"]
    outcome = {"termination": "victory", "winner": 0, "points": [10, 2, 2, 2]}
    outcome |= {"placings": [1, 2, 2, 2], "turns": 30}
    reply = session.handle(end_message(stream.encode(game.observe(0)), outcome))
    assert reply["where"] == "end" and "SystemExit" in reply["message"]


def test_import_failures_are_reported_at_the_first_message(tmp_path: Path) -> None:
    bot = tmp_path / "two.py"
    bot.write_text(
        "from bots import Player\n\n\nclass A(Player):\n    def act(self, o):\n        return 1\n"
        "\n\nclass B(A):\n    pass\n"
    )
    player_class, load_error = load_bot(str(bot))
    assert player_class is None and load_error is not None
    assert load_error["where"] == "import"
    assert "exactly one Player subclass, found 2" in load_error["message"]
    session = BotSession(None, load_error)
    assert session.handle(start_for(Game.new(CONFIG, 1), 0)) == load_error


# --- the usual action reply, read without the JSON parser ---------------------------------


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"action","action":7,"seq":0}\n',
        b'{"type":"action","action":0,"seq":4294967295}\n',
    ],
)
def test_the_usual_reply_is_read_as_the_json_parser_reads_it(line: bytes) -> None:
    from bots import protocol

    assert protocol._usual_action(line) is not None  # control: the fast path takes it
    assert protocol.parse_child_message(line) == protocol.check_message(
        protocol.decode(line), protocol._CHILD_FIELDS, "bot"
    )


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"action","action":07,"seq":1}\n',  # a leading zero: not JSON
        b'{"type":"action","action":-1,"seq":1}\n',
        b'{"type":"action","action":1.0,"seq":1}\n',
        b'{"type":"action","action":1e3,"seq":1}\n',
        b'{"type":"action","action":1,"seq":1,"seq":2}\n',  # a key given twice
        b'{"type":"action","action":1,"seq":1,"x":2}\n',
        b'{"type":"action","action":1234567890123456789,"seq":1}\n',
        b'{"type":"action","action":\xd9\xa1,"seq":1}\n',  # a non-ASCII digit
        b'{"type":"action","action":,"seq":1}\n',
        b'{"type":"action","action":1,"seq":1} \n',
    ],
)
def test_any_other_reply_takes_the_full_parser(line: bytes) -> None:
    from bots import protocol

    assert protocol._usual_action(line) is None
