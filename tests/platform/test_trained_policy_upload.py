"""The trained-policy example uploaded as an author would: its package folder zipped by
the ordinary upload path (``bots.package.upload_bytes``, what ``catan-arena upload``
sends), validated in the sandbox within the platform's clock, then played in a ladder
match against the house bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.package import upload_bytes
from catan_arena.accounts.models import User
from catan_arena.matches.services import MatchLimits, create_match, run_match
from catan_arena.submissions.services import register_builtins, upload_version, validate_version

PACKAGE = Path(__file__).resolve().parents[2] / "bots" / "examples" / "trained_policy"

pytestmark = pytest.mark.django_db


def test_the_trained_policy_is_uploaded_validated_and_plays_a_ladder_match(author: User) -> None:
    filename, data = upload_bytes(PACKAGE)
    assert filename == "trained_policy.zip"
    mine = upload_version(author, "my-policy", filename, data).version
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
