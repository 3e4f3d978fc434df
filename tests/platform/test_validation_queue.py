"""Validation never waits behind matches (server mode, real Redis and ``celery worker``
processes): with every match slot held by a slow match, an upload sent to the
validation queue is taken by the worker reserved for it within 15 s and ends active.
The control: one worker consuming both queues, busy with the same match, leaves it
untaken (``pending``) all that time.

What is timed is the taking, not the verdict: the verdict is a sandboxed smoke game,
whose length is the machine's load (a loaded CI machine once took over a minute), while
the taking is what reserved capacity decides."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import transaction

from catan_arena.accounts.models import User
from catan_arena.core.queues import MATCH_QUEUE, VALIDATION_QUEUE
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version
from tests.support.bots import VALID_BOT
from tests.support.celery_worker import CeleryWorker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)
TAKEN_WITHIN = 15.0
VERDICT_WITHIN = 240.0
"""Generous: a smoke game on a loaded machine, and a retry if its sandbox failed to start."""
SLOW = VALID_BOT.replace(
    b"        legal = observation.legal_actions\n",
    b"        import time\n        time.sleep(0.3)\n        legal = observation.legal_actions\n",
)
"""0.3 s of wall clock a decision: a match that holds its worker for minutes."""


def hold_the_match_slot(owner: User, worker: CeleryWorker) -> Match:
    versions = []
    for n in range(3):
        # active before its validation is queued (at the commit): a validator that took
        # it still pending would play its slow smoke game, and the fresh upload would
        # wait behind it (a race seen once in CI)
        with transaction.atomic():
            upload = upload_version(owner, f"slow-{n}", "slow.py", SLOW + f"# {n}\n".encode())
            BotVersion.objects.filter(pk=upload.version.pk).update(status=BotVersion.Status.ACTIVE)
        versions.append(BotVersion.objects.get(pk=upload.version.pk))
    match = create_match(versions, limits=MatchLimits(1.0, 5.0))
    wait_for(lambda: status(match) == "running", 60, "the slow match to start", worker)
    return match


def status(row: Match | BotVersion) -> str:
    row.refresh_from_db(fields=["status"])
    return str(row.status)


def seconds_until(version: BotVersion, states: tuple[str, ...], limit: float) -> float | None:
    """Seconds until ``version`` is in one of ``states``, or None if not within ``limit``."""
    sent = time.monotonic()
    while time.monotonic() - sent < limit:
        if status(version) in states:
            return time.monotonic() - sent
        time.sleep(0.1)
    return None


def upload_fresh(owner: User) -> BotVersion:
    version: BotVersion = upload_version(owner, "fresh", "fresh.py", VALID_BOT).version
    return version


TAKEN = ("validating", "active", "rejected")


def test_an_upload_is_validated_while_every_match_slot_is_busy(
    server_mode: dict[str, str], workers: list[Any], author: User
) -> None:
    matches = CeleryWorker(server_mode, concurrency=1, queues=MATCH_QUEUE)
    validator = CeleryWorker(server_mode, concurrency=1, queues=VALIDATION_QUEUE)
    workers.extend([matches, validator])
    match = hold_the_match_slot(author, matches)
    fresh = upload_fresh(author)
    taken = seconds_until(fresh, TAKEN, TAKEN_WITHIN)
    assert taken is not None, validator.output()[-3000:]
    assert status(match) == "running"  # the slot was busy the whole time
    verdict = seconds_until(fresh, ("active", "rejected"), VERDICT_WITHIN)
    assert verdict is not None and status(fresh) == "active", validator.output()[-3000:]


def test_control_without_reserved_capacity_the_upload_waits(
    server_mode: dict[str, str], workers: list[Any], author: User
) -> None:
    only = CeleryWorker(server_mode, concurrency=1)  # both queues, one process
    workers.append(only)
    match = hold_the_match_slot(author, only)
    fresh = upload_fresh(author)
    assert seconds_until(fresh, TAKEN, TAKEN_WITHIN) is None
    assert status(fresh) == "pending"
    assert status(match) == "running"
