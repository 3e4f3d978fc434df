"""Validation in the sandbox: each way an upload can fail becomes ``rejected`` with a
report in plain words; a valid bot becomes ``active``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from catan_arena.accounts.models import User
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.selectors import playing_version
from catan_arena.submissions.services import upload_version, validate_version
from tests.support.bots import SOURCES, VALID_BOT

pytestmark = pytest.mark.django_db


def validated(author: User, filename: str, data: bytes) -> BotVersion:
    version = upload_version(author, "candidate", filename, data).version
    assert validate_version(version.pk) in ("active", "rejected")
    version.refresh_from_db()
    return version


@pytest.mark.parametrize("case", sorted(SOURCES))
def test_a_broken_bot_is_rejected_with_its_reason(author: User, case: str) -> None:
    source, words = SOURCES[case]
    version = validated(author, "candidate.py", source)
    assert version.status == "rejected", version.report
    assert words in version.report
    assert playing_version(version.bot) is None


def test_a_valid_bot_becomes_active_with_its_report(author: User) -> None:
    version = validated(author, "wanderer.py", VALID_BOT)
    assert version.status == "active", version.report
    assert "smoke game" in version.report and "sandbox: tier FULL" in version.report
    assert playing_version(version.bot) == version


def test_a_valid_zip_package_becomes_active(author: User, zip_of: Callable[..., bytes]) -> None:
    helper = b"def pick(legal, rng):\n    return rng.choice(legal)\n"
    entry = VALID_BOT.replace(b"return self.rng.choice(plain)", b"return pick(plain, self.rng)")
    entry = b"from helper import pick\n" + entry
    version = validated(author, "pkg.zip", zip_of({"bot.py": entry, "helper.py": helper}))
    assert version.status == "active", version.report


def test_validation_is_claimed_once(author: User) -> None:
    version = upload_version(author, "wanderer", "w.py", VALID_BOT).version
    assert validate_version(version.pk) == "active"
    assert validate_version(version.pk) is None  # a second delivery finds nothing to do


def test_the_newest_active_version_plays(author: User) -> None:
    first = validated(author, "w.py", VALID_BOT)
    broken = upload_version(author, "candidate", "w.py", SOURCES["no Player"][0]).version
    validate_version(broken.pk)
    assert playing_version(first.bot) == first
    newer = upload_version(author, "candidate", "w.py", VALID_BOT + b"# v3\n").version
    validate_version(newer.pk)
    assert playing_version(first.bot) == newer
