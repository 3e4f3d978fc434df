"""Reads on bots and versions."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db.models import QuerySet

from catan_arena.submissions.models import Bot, BotVersion


def is_author(user: Any, owner_id: int) -> bool:
    """Whether ``user`` may read what a bot of ``owner_id``'s printed, raised or logged
    (validation reports, fault messages, seat logs): its author, and staff. Every page
    and API operation asks this one rule."""
    return bool(user.is_authenticated and (user.pk == owner_id or user.is_staff))


def shown_report(version: BotVersion, user: Any) -> str:
    """The validation report ``user`` may read: its author the whole report, anyone
    else the summary (verdict and plain reason)."""
    return version.report if is_author(user, version.bot.owner_id) else version.summary


def playing_version(bot: Bot) -> BotVersion | None:
    """The bot's newest active version (the one that plays), if any."""
    return bot.versions.filter(status=BotVersion.Status.ACTIVE).order_by("-number").first()


def playing_versions() -> list[BotVersion]:
    """The newest active version of every bot."""
    newest: dict[int, BotVersion] = {}
    for version in active_versions().order_by("bot_id", "-number"):
        newest.setdefault(version.bot_id, version)
    return sorted(newest.values(), key=lambda v: v.bot.name)


def active_versions() -> QuerySet[BotVersion]:
    return BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).select_related(
        "bot", "bot__owner"
    )


def author_key(version: BotVersion) -> int:
    """Who counts as a version's author for "one version per author at a table": its
    owner, except the system account, whose built-in bots each count as their own."""
    owner = version.bot.owner
    return -version.bot_id if owner.is_system else owner.pk


def find_version(spec: str) -> BotVersion | None:
    """``bot`` (its newest active version) or ``bot:N`` (its version N)."""
    name, _, number = spec.partition(":")
    versions = BotVersion.objects.filter(bot__name=name).select_related("bot__owner")
    if number:
        return versions.filter(number=int(number) if number.isdigit() else -1).first()
    return versions.filter(status=BotVersion.Status.ACTIVE).order_by("-number").first()


def next_pending_version(skip: Collection[int] = ()) -> int | None:
    """The oldest version waiting for validation, except those in ``skip``."""
    pk: int | None = (
        BotVersion.objects.filter(status=BotVersion.Status.PENDING)
        .exclude(pk__in=list(skip))
        .order_by("status_changed_at", "id")
        .values_list("pk", flat=True)
        .first()
    )
    return pk
