"""Writes on the ladder: the matchmaker's tick, pause and resume, withdrawing a version."""

from __future__ import annotations

import random

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from catan_arena.accounts.models import User
from catan_arena.ladder.matchmaking import plan_tables
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.selectors import candidates, matchmaker_in_flight
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.submissions.models import BotVersion
from engine import RulesConfig

MAX_BUSY = 1
"""Ladder matches a version may have queued or running at once."""


def fill_ladder(rng: random.Random | None = None) -> list[Match]:
    """Queue ladder matches until ``tables_in_flight`` are queued or running (nothing
    while paused); returns the new matches. Safe to call concurrently: the settings row
    is locked while the tables are planned."""
    with transaction.atomic():
        ladder = LadderSettings.objects.select_for_update().get(pk=LadderSettings.current().pk)
        if ladder.paused:
            return []
        free_tables = ladder.tables_in_flight - matchmaker_in_flight()
        if free_tables <= 0:
            return []
        tables = plan_tables(
            candidates(),
            tables=free_tables,
            table_size=ladder.table_size,
            max_busy=MAX_BUSY,
            rng=rng,
        )
        versions = BotVersion.objects.in_bulk([v for table in tables for v in table])
        limits = MatchLimits(ladder.decision_seconds, ladder.time_bank_seconds)
        return [
            create_match(
                [versions[v] for v in table],
                rules=RulesConfig(players=len(table)),
                limits=limits,
                ladder=True,
            )
            for table in tables
        ]


def _require(user: User, permission: str) -> None:
    if not user.has_perm(permission):
        raise PermissionDenied(f"{user} may not do this (needs {permission})")


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
        raise PermissionDenied("only the bot's author can withdraw its versions")
    BotVersion.objects.filter(pk=version.pk, withdrawn_at__isnull=True).update(
        withdrawn_at=timezone.now()
    )
    version.refresh_from_db(fields=["withdrawn_at"])


def reinstate_version(user: User, version: BotVersion) -> None:
    """Put a withdrawn version back on the ladder (if it is still its bot's newest)."""
    if version.bot.owner_id != user.pk and not user.is_staff:
        raise PermissionDenied("only the bot's author can reinstate its versions")
    BotVersion.objects.filter(pk=version.pk).update(withdrawn_at=None)
    version.refresh_from_db(fields=["withdrawn_at"])
