"""Writes on the ladder: the matchmaker's tick (and its top-ups), the house bots, pause
and resume, withdrawing a version."""

from __future__ import annotations

import functools
import logging
import random

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bots.builtin_source import house_bot_sha256
from bots.registry import BUILTINS
from catan_arena.accounts.models import User
from catan_arena.core import dispatch
from catan_arena.core.errors import Forbidden
from catan_arena.ladder.matchmaking import is_placing, plan_tables
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.selectors import candidates, matchmaker_in_flight, pace
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins
from engine import RulesConfig

log = logging.getLogger(__name__)

MAX_BUSY = 2
"""Ladder matches a version may have queued or running at once (idle versions are
seated first: a second table only when the field is small, so every worker stays busy)."""


def fill_ladder(rng: random.Random | None = None, *, full_speed: bool = False) -> list[Match]:
    """Queue ladder matches up to ``tables_in_flight`` queued or running, at the ladder's
    pace (:func:`catan_arena.ladder.selectors.pace`; ``full_speed`` ignores a settled
    ladder's background rate), nothing while paused; returns the new matches. Makes
    sure the house bots are on the ladder first (``settings.HOUSE_BOTS_ON_LADDER``).
    Safe to call concurrently: the settings row is locked while the tables are planned."""
    with transaction.atomic():
        ladder = _locked_settings()
        if ladder.paused:
            return []
        if settings.HOUSE_BOTS_ON_LADDER:
            ensure_house_bots()
        in_flight = matchmaker_in_flight()
        if ladder.tables_in_flight <= in_flight:
            return []  # full (most ticks and top-ups of a busy ladder): nothing to plan
        field = candidates()
        now = pace(ladder, field, in_flight)
        free_tables = now.free_slots if full_speed else now.tables
        if free_tables <= 0:
            return []
        tables = plan_tables(
            field,
            tables=free_tables,
            table_size=ladder.table_size,
            max_busy=MAX_BUSY,
            rng=rng,
        )
        versions = BotVersion.objects.in_bulk([v for table in tables for v in table])
        limits = MatchLimits(ladder.decision_seconds, ladder.time_bank_seconds)
        placing = {c.version for c in field if is_placing(c)}
        return [
            create_match(
                [versions[v] for v in table],
                rules=RulesConfig(players=len(table)),
                limits=limits,
                ladder=True,
                priority=Match.Priority.WAITED_FOR if placing & set(table) else None,
            )
            for table in tables
        ]


def _locked_settings() -> LadderSettings:
    """The ladder's settings row, locked for this transaction (made first if missing)."""
    found = LadderSettings.objects.select_for_update().filter(pk=LadderSettings.ROW).first()
    if found is None:
        LadderSettings.current()
        found = LadderSettings.objects.select_for_update().get(pk=LadderSettings.ROW)
    return found


def fill_ladder_on_commit() -> None:
    """Top the ladder up once the current transaction commits (a ladder match recorded,
    a version made active), not only on the next tick: in server mode as a task on the
    quick queue (a free worker does it while the match workers play on), on the embedded
    default here. A failure is logged, never raised: what triggered it stands, and the
    tick tries again."""
    if not dispatch.on_commit_fill_ladder():
        transaction.on_commit(_fill_quietly)


def _fill_quietly() -> None:
    try:
        fill_ladder()
    except Exception:
        log.exception("topping up the ladder failed (the next tick tries again)")


@functools.cache
def _house_bot_contents() -> frozenset[tuple[str, str]]:
    """Each built-in's (name, version key) as shipped (read once per process)."""
    return frozenset((name, house_bot_sha256(path)) for name, path in BUILTINS.items())


def ensure_house_bots() -> None:
    """The built-in bots registered as active versions of the system account (one
    query when they already are; :func:`register_builtins` when one is missing or its
    file changed). They count as different authors (``author_key``), so they can fill
    a table among themselves."""
    shipped = _house_bot_contents()
    registered = set(
        BotVersion.objects.filter(
            bot__owner__is_system=True,
            status=BotVersion.Status.ACTIVE,
            content_id__in=[sha for _, sha in shipped],
        ).values_list("bot__name", "content_id")
    )
    if not shipped <= registered:
        register_builtins()


def _require(user: User, permission: str) -> None:
    if not user.has_perm(permission):
        raise Forbidden(f"{user} may not do this (needs {permission})")


def set_ladder_paused(user: User, paused: bool) -> LadderSettings:
    """Pause (no new ladder matches; those in flight finish) or resume the ladder."""
    _require(user, "ladder.change_laddersettings")
    with transaction.atomic():
        ladder = LadderSettings.objects.select_for_update().get(pk=LadderSettings.current().pk)
        ladder.paused = paused
        ladder.changed_by = user
        ladder.save()
    return ladder


def withdraw_version(user: User, version: BotVersion) -> None:
    """Its author takes a version off the ladder (its matches in flight still count;
    its rating and history stay)."""
    if version.bot.owner_id != user.pk and not user.is_staff:
        raise Forbidden("only the bot's author can withdraw its versions")
    BotVersion.objects.filter(pk=version.pk, withdrawn_at__isnull=True).update(
        withdrawn_at=timezone.now()
    )
    version.refresh_from_db(fields=["withdrawn_at"])


def reinstate_version(user: User, version: BotVersion) -> None:
    """Put a withdrawn version back on the ladder (if it is still its bot's newest)."""
    if version.bot.owner_id != user.pk and not user.is_staff:
        raise Forbidden("only the bot's author can reinstate its versions")
    BotVersion.objects.filter(pk=version.pk).update(withdrawn_at=None)
    version.refresh_from_db(fields=["withdrawn_at"])
