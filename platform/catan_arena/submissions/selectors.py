"""Reads on bots and versions."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

from django.db.models import OuterRef, Q, QuerySet, Subquery

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


def newest_active(bot: Bot | OuterRef) -> QuerySet[BotVersion]:
    """The bot's active versions, newest first (``bot`` may be an ``OuterRef``)."""
    active = BotVersion.objects.filter(status=BotVersion.Status.ACTIVE)
    return active.filter(bot=cast(Any, bot)).order_by("-number")


def plays() -> Q:
    """The versions that play (on the ladder, entered by default, shown as "playing"):
    each bot's newest active version, unless its author withdrew it — then the bot plays
    nowhere until a newer version is active. The one definition: a filter on versions
    (``BotVersion.objects.filter(plays())``) or, wrapped, an annotation."""
    newest = Subquery(newest_active(OuterRef("bot")).values("pk")[:1])
    return Q(pk=newest, withdrawn_at__isnull=True)


def playing_version(bot: Bot) -> BotVersion | None:
    """The bot's version that plays (:func:`plays`), if any."""
    return BotVersion.objects.filter(plays(), bot=bot).first()


def with_playing_version(bots: QuerySet[Bot]) -> QuerySet[Bot]:
    """``bots`` annotated with ``playing_version``: the id of the version that plays, or
    None (:func:`plays`)."""
    playing = BotVersion.objects.filter(plays(), bot=OuterRef("pk")).values("pk")[:1]
    return bots.annotate(playing_version=Subquery(playing))


def playing_versions() -> list[BotVersion]:
    """Every bot's version that plays (:func:`plays`), by bot name."""
    return list(active_versions().filter(plays()).order_by("bot__name"))


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
    bot = Bot.objects.filter(name=name).first()
    return newest_active(bot).select_related("bot__owner").first() if bot else None


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


def bot_named(name: str) -> Bot | None:
    return Bot.objects.filter(name=name).first()


def versions_newest_first() -> QuerySet[BotVersion]:
    """Every version with its bot and owner, newest first."""
    return BotVersion.objects.select_related("bot__owner").order_by("-id")


def version_with_bot(pk: int | None) -> BotVersion | None:
    """One version with its bot and owner (None if there is none, or no id)."""
    if pk is None:
        return None
    return BotVersion.objects.select_related("bot__owner").filter(pk=pk).first()


def versions_of(bot: Bot) -> list[BotVersion]:
    """A bot's versions, newest first."""
    return list(bot.versions.select_related("bot").order_by("-number"))


def active_versions_of(bot: Bot) -> QuerySet[BotVersion]:
    """A bot's active versions, newest first (:func:`newest_active`)."""
    return newest_active(bot)


def own_active_versions(owner: Any) -> QuerySet[BotVersion]:
    """An author's active versions, by bot name then newest first."""
    own = BotVersion.objects.filter(bot__owner=owner, status=BotVersion.Status.ACTIVE)
    return own.select_related("bot").order_by("bot__name", "-number")


def bots_with_playing_version() -> QuerySet[Bot]:
    """Every bot with its owner and the id of its version that plays (``playing_version``)."""
    return with_playing_version(Bot.objects.select_related("owner"))
