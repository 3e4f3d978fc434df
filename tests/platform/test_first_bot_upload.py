"""The bot guide's five-minute bot, uploaded as an author would: validated in the sandbox,
then played in a ladder match against the house bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from catan_arena.accounts.models import User
from catan_arena.matches.services import MatchLimits, create_match, run_match
from catan_arena.submissions.services import register_builtins, upload_version, validate_version

FIRST_BOT = Path(__file__).resolve().parents[2] / "bots" / "examples" / "first_bot.py"

pytestmark = pytest.mark.django_db


def test_the_first_bot_is_uploaded_validated_and_plays_a_ladder_match(author: User) -> None:
    mine = upload_version(author, "my-bot", "my_bot.py", FIRST_BOT.read_bytes()).version
    assert validate_version(mine.pk) == "active"
    mine.refresh_from_db()
    assert "smoke game" in mine.report, mine.report
    house = {v.builtin: v for v in register_builtins()}
    table = [house["random"], mine, house["heuristic"], house["search"]]
    limits = MatchLimits(decision_seconds=0.5, time_bank_seconds=2.0)
    match = create_match(table, limits=limits, ladder=True)
    assert run_match(match.pk) == "finished"
    seat = match.seats.get(seat=1)
    assert seat.version == mine and seat.decisions > 0
    assert not seat.faults and seat.forfeit is None, seat.faults
