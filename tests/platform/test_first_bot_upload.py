"""The bot guide's five-minute bot, uploaded as an author would: validated in the sandbox,
then played in a ladder match against the house bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from catan_arena.accounts.models import User
from tests.support.records import upload_and_play_on_ladder

FIRST_BOT = Path(__file__).resolve().parents[2] / "bots" / "examples" / "first_bot.py"

pytestmark = pytest.mark.django_db


def test_the_first_bot_is_uploaded_validated_and_plays_a_ladder_match(author: User) -> None:
    mine, status, seat, ended = upload_and_play_on_ladder(
        author, "my-bot", "my_bot.py", FIRST_BOT.read_bytes()
    )
    assert status == "active"
    assert "smoke game" in mine.report, mine.report
    assert ended == "finished"
    assert seat.version == mine and seat.decisions > 0
    assert not seat.faults and seat.forfeit is None, seat.faults
