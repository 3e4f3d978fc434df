"""Bot-supplied text is cleaned at the protocol boundary."""

from __future__ import annotations

from bots.protocol import clean_text, encode, error_message, parse_child_message


def test_controls_escapes_and_bidi_go_tabs_and_newlines_stay() -> None:
    raw = "a\x00b\x1b]52;c;eA==\x07c\x1b[2J\x9b1m\u202ed\te\nf\x7f"
    assert clean_text(raw) == "ab]52;c;eA==c[2J1md\te\nf"


def test_lone_surrogates_are_replaced_and_long_text_is_clipped() -> None:
    assert clean_text("x\ud800y") == "x?y"
    clipped = clean_text("z" * 5_000, 2_000)
    assert len(clipped) == 2_000 and clipped.endswith("...(clipped)")


def test_parsed_child_messages_are_clean_and_keep_only_their_fields() -> None:
    line = encode(
        error_message("act", "boom\x00" + "!" * 10_000, "tb\x1b[2J") | {"junk": 1, "seq": 5}
    )
    message = parse_child_message(line)
    assert set(message) == {"type", "where", "message", "traceback", "seq"}
    assert "\x00" not in message["message"] and len(message["message"]) == 2_000
    assert message["traceback"] == "tb[2J"
