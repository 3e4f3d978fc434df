"""Rows the platform's tests make and read: active bots of an author, this test
worker's database URL, duplicate rotations' replays compared."""

from __future__ import annotations

from typing import Any

from catan_arena.accounts.models import User
from catan_arena.matches.models import MatchSeat
from catan_arena.matches.services import MatchLimits, create_match, run_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins, upload_version, validate_version
from tests.support.bots import VALID_BOT
from tests.support.services import suite_services

FAST = MatchLimits(decision_seconds=0.3, time_bank_seconds=1.0)
"""The clock of the platform tests' matches: quick games for bots that answer at once."""


def active_bots(owner: User, count: int) -> list[BotVersion]:
    """``count`` distinct valid bots of ``owner``, active (validation is tested on its
    own; these only need to play)."""
    versions = []
    for i in range(count):
        source = VALID_BOT + f"\n# bot {i}\n".encode()
        version = upload_version(owner, f"bot-{owner.username}-{i}", "bot.py", source).version
        version.status = BotVersion.Status.ACTIVE
        version.save(update_fields=["status"])
        versions.append(version)
    return versions


def database_url() -> str:
    """The URL of the database this test worker uses (the ``test_`` one, on the suite's
    own PostgreSQL)."""
    from django.db import connection

    return suite_services().postgres_url(connection.settings_dict["NAME"])


def assert_one_board_and_dice(replays: list[dict[str, Any] | None]) -> None:
    """Duplicate rotations: one board, and the same dice for as long as every game lasts."""
    assert len({repr(r["board"]) for r in replays if r}) == 1
    dice = [
        [s["outcome"] for s in r["steps"] if s["action"]["type"] == "roll_dice"]
        for r in replays
        if r
    ]
    shortest = min(len(d) for d in dice)
    assert shortest > 10 and all(d[:shortest] == dice[0][:shortest] for d in dice)


def upload_and_play_on_ladder(
    author: User, name: str, filename: str, data: bytes
) -> tuple[BotVersion, str, MatchSeat, str | None]:
    """Upload ``data`` as ``author``'s bot, validate it, and seat it (seat 1) in a ladder
    match among the house bots: the version, its validation status, its seat, and how the
    match ended (:func:`run_match`)."""
    mine = upload_version(author, name, filename, data).version
    status = validate_version(mine.pk)
    assert status is not None, "another caller validated the new version"
    mine.refresh_from_db()
    house = {v.builtin: v for v in register_builtins()}
    table = [house["random"], mine, house["heuristic"], house["search"]]
    limits = MatchLimits(decision_seconds=0.5, time_bank_seconds=2.0)
    match = create_match(table, limits=limits, ladder=True)
    ended = run_match(match.pk)
    return mine, status, match.seats.get(seat=1), ended
