"""The trained-policy example uploaded as an author would: its package folder zipped by
the ordinary upload path (``bots.package.upload_bytes``, what ``catan-arena upload``
sends), validated in the sandbox within the platform's clock, then played in a ladder
match against the house bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.package import upload_bytes
from catan_arena.accounts.models import User
from tests.support.records import upload_and_play_on_ladder

PACKAGE = Path(__file__).resolve().parents[2] / "bots" / "examples" / "trained_policy"

pytestmark = pytest.mark.django_db


def test_the_trained_policy_is_uploaded_validated_and_plays_a_ladder_match(author: User) -> None:
    filename, data = upload_bytes(PACKAGE)
    assert filename == "trained_policy.zip"
    mine, status, seat, ended = upload_and_play_on_ladder(author, "my-policy", filename, data)
    assert status == "active"
    assert "smoke game" in mine.report, mine.report
    assert ended == "finished"
    assert seat.version == mine and seat.decisions > 0
    assert not seat.faults and seat.forfeit is None, seat.faults
