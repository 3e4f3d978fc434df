"""Hand work to the workers once the transaction that made it commits.

Server mode sends Celery tasks; the embedded default sends nothing: its local worker
processes pick up queued work from the database (:mod:`catan_arena.matches.embedded`).
Both end in the same service functions."""

from __future__ import annotations

import math

from django.conf import settings
from django.db import transaction


def on_commit_validate(version_id: int) -> None:
    """Queue the validation of a version (server mode)."""
    if settings.EMBEDDED:
        return
    from catan_arena.submissions.tasks import validate_version_task

    transaction.on_commit(lambda: validate_version_task.delay(version_id))


def on_commit_play(match_id: int, budget: float) -> None:
    """Queue a match (server mode), with soft and hard time limits from its budget."""
    if settings.EMBEDDED:
        return
    from catan_arena.matches.tasks import play_match_task

    soft = math.ceil(budget)
    transaction.on_commit(
        lambda: play_match_task.apply_async((match_id,), soft_time_limit=soft, time_limit=soft + 30)
    )
