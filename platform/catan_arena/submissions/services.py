"""Writes on bots and versions: uploads, built-in registration, validation."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import Max
from django.utils import timezone

from arena_runner import BotRunner, SandboxUnavailable, resolve_policy
from arena_runner.validation import Verdict, validate_bot
from arena_runner.validation_policy import ValidationPolicy
from bots.builtin_source import house_bot_source
from bots.package import PackageLimits
from bots.registry import BUILTINS
from catan_arena.accounts.models import User
from catan_arena.accounts.services import system_user
from catan_arena.core import dispatch
from catan_arena.core.queues import VALIDATION_QUEUE
from catan_arena.submissions.checks import check_bot_name, check_upload
from catan_arena.submissions.errors import BotNameTaken, StorageFull
from catan_arena.submissions.models import Bot, BotContent, BotVersion
from catan_arena.submissions.selectors import newest_active
from catan_arena.submissions.signals import version_activated
from catan_arena.submissions.storage import materialize
from engine import __version__ as engine_version
from engine.rng import new_seed

log = logging.getLogger(__name__)
Status = BotVersion.Status


@dataclass(frozen=True)
class UploadOutcome:
    version: BotVersion
    created: bool
    message: str


def upload_limits() -> PackageLimits:
    """This server's upload caps (validation's defaults unless its settings override)."""
    return PackageLimits(
        archive_bytes=settings.UPLOAD_MAX_BYTES,
        unpacked_bytes=settings.UPLOAD_UNPACKED_MAX_BYTES,
        files=settings.UPLOAD_MAX_FILES,
    )


def validation_policy() -> ValidationPolicy:
    """What validation checks on this server: the policy ``catan-arena validate`` runs,
    with this server's upload caps and match clock (the same unless overridden)."""
    return ValidationPolicy(
        package=upload_limits(),
        decision_seconds=settings.MATCH_DECISION_SECONDS,
        time_bank_seconds=settings.MATCH_TIME_BANK_SECONDS,
    )


def upload_version(
    owner: User,
    bot_name: str,
    filename: str,
    data: bytes,
    *,
    description: str = "",
    inherit_rating: bool = False,
    admit: Callable[[], None] | None = None,
) -> UploadOutcome:
    """Store ``data`` as the next version of ``owner``'s bot ``bot_name`` (made if new)
    and queue its validation. Identical content to an existing version of the bot changes
    nothing and says so. ``UploadRejected`` (nothing stored) for a bad name, a bot of
    another author, or a file that fails :func:`check_upload`. ``inherit_rating``: the
    new version starts on the ladder from the bot's newest active version's rating, its
    uncertainty widened (otherwise it starts afresh). ``admit``: called in the
    transaction that creates the version, after the file's checks, just before it is
    created; it may refuse by raising (the fair-use limits lock and count there)."""
    check_bot_name(bot_name)
    if bot_name in BUILTINS and not owner.is_system:
        raise BotNameTaken(f"the bot name {bot_name!r} is reserved for the house bot")
    kind = check_upload(filename, data, upload_limits())
    try:
        return _store(owner, bot_name, filename, data, kind, description, inherit_rating, admit)
    except OperationalError as exc:
        if getattr(exc.__cause__, "sqlstate", None) == DISK_FULL:
            log.error("upload of %s refused: the database's disk is full", bot_name)
            raise StorageFull(
                "the server's storage is full: nothing was stored; try again later"
            ) from None
        raise


DISK_FULL = "53100"
"""PostgreSQL's SQLSTATE for "could not extend file: No space left on device"."""


def _store(
    owner: User, bot_name: str, filename: str, data: bytes, kind: str, description: str,
    inherit_rating: bool, admit: Callable[[], None] | None,
) -> UploadOutcome:  # fmt: skip
    """The checked upload's rows, all in one transaction (all or nothing)."""
    sha = hashlib.sha256(data).hexdigest()
    with transaction.atomic():
        bot, _ = Bot.objects.select_for_update().get_or_create(
            name=bot_name, defaults={"owner": owner, "description": description}
        )
        if bot.owner_id != owner.pk:
            raise BotNameTaken(f"the bot name {bot_name!r} belongs to another author")
        same = bot.versions.filter(content_id=sha).first()
        if same is not None:
            return UploadOutcome(
                same, False, f"identical to {same} ({same.status}): nothing changed"
            )
        if admit is not None:
            admit()
        parent = None
        if inherit_rating:
            parent = newest_active(bot).first()
        version = _add_version(
            bot, data, sha, kind=kind, filename=filename[:255], inherits_from=parent
        )
        dispatch.on_commit_validate(version.pk)
    message = f"{version} uploaded: validation queued"
    if parent is not None:
        message += f"; on the ladder it starts from {parent}'s rating, its uncertainty widened"
    elif inherit_rating:
        message += "; no active version to inherit a rating from: it starts afresh"
    return UploadOutcome(version, True, message)


def _add_version(bot: Bot, data: bytes, sha: str, **fields: Any) -> BotVersion:
    """``bot``'s next version, of ``data`` (stored once by its hash ``sha``) with
    ``fields``; call in a transaction that holds ``bot``'s row locked, so numbers stay
    unique."""
    content, _ = BotContent.objects.get_or_create(
        sha256=sha, defaults={"data": data, "size": len(data)}
    )
    number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
    return BotVersion.objects.create(bot=bot, number=number, content=content, **fields)


def register_builtins() -> list[BotVersion]:
    """The built-in bots as active versions of the system account (a new version when
    a built-in's file or one of the helper modules it imports changed: the stored source
    is :func:`house_bot_source`); returns the current version of each."""
    owner = system_user()
    versions = []
    for name, path in sorted(BUILTINS.items()):
        data = house_bot_source(path)
        sha = hashlib.sha256(data).hexdigest()
        with transaction.atomic():
            bot, _ = Bot.objects.select_for_update().get_or_create(
                name=name, defaults={"owner": owner, "description": f"Built-in {name} bot."}
            )
            if bot.owner_id != owner.pk:  # taken before the house bots came (older data)
                log.error("the house bot name %r belongs to another author: skipped", name)
                continue
            version = bot.versions.filter(content_id=sha).first()
            if version is None:
                version = _add_version(
                    bot,
                    data,
                    sha,
                    kind=BotVersion.Kind.PY,
                    filename=path.name,
                    status=Status.ACTIVE,
                    builtin=name,
                    report=f"built-in bot shipped with engine {engine_version}",
                    summary=f"built-in bot shipped with engine {engine_version}",
                )
        versions.append(version)
    return versions


def claim_validation(version_id: int) -> bool:
    """``pending → validating``, atomically: True for the one caller that got it."""
    claimed = BotVersion.objects.filter(pk=version_id, status=Status.PENDING).update(
        status=Status.VALIDATING, status_changed_at=timezone.now()
    )
    return claimed == 1


def validate_version(version_id: int) -> str | None:
    """Validate a pending version in the sandbox (:func:`validation_policy`: its smoke
    game against ``random`` bots from a fresh seed, recorded in the report) and record
    ``active`` or ``rejected`` with its report. Returns the new status, or
    None when another caller has it. A sandbox failure (not the bot's) puts it back to
    ``pending`` and raises :class:`ValidationUnavailable` (the task retries)."""
    if not claim_validation(version_id):
        return None
    version = BotVersion.objects.select_related("bot", "content").get(pk=version_id)
    try:
        runner = BotRunner(resolve_policy())
    except SandboxUnavailable as exc:
        _set_status(version_id, Status.PENDING, f"validation could not run: {exc}", NOT_RUN)
        raise ValidationUnavailable(str(exc)) from exc
    try:
        verdict = validate_bot(
            materialize(version), runner, seed=new_seed(), policy=validation_policy()
        )
    finally:
        runner.close()
    if verdict.valid is None:
        reason = f"validation could not run: {verdict.reason}"
        _set_status(version_id, Status.PENDING, reason, verdict.summary())
        raise ValidationUnavailable(verdict.reason)
    status = Status.ACTIVE if verdict.valid else Status.REJECTED
    _set_status(version_id, status, verdict.text(), verdict.summary())
    if status == Status.ACTIVE:  # the ladder, listening, tops up at once
        version_activated.send(BotVersion, version=version)
    return str(status)


class ValidationUnavailable(Exception):
    """The sandbox could not check a version (a platform fault: try again later)."""


NOT_RUN = Verdict(None).summary()


def _set_status(version_id: int, status: str, report: str, summary: str) -> None:
    """The new status with the author's ``report`` and everyone's ``summary``."""
    BotVersion.objects.filter(pk=version_id).update(
        status=status, report=report, summary=summary, status_changed_at=timezone.now()
    )


def requeue_stuck_validations(older_than_seconds: float) -> list[int]:
    """Versions left ``validating`` by a lost worker go back to ``pending`` (and are
    queued again)."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    ids = list(
        BotVersion.objects.filter(
            status=Status.VALIDATING, status_changed_at__lt=cutoff
        ).values_list("pk", flat=True)
    )
    for pk in ids:
        with transaction.atomic():
            if BotVersion.objects.filter(pk=pk, status=Status.VALIDATING).update(
                status=Status.PENDING, status_changed_at=timezone.now()
            ):
                dispatch.on_commit_validate(pk)
    return ids


def redispatch_lost_validations(older_than_seconds: float) -> list[int]:
    """Versions still ``pending`` this long whose validation task the broker lost
    (:func:`dispatch.lost_by_broker`): queue it again (a second delivery finds the
    version taken: nothing is validated twice)."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    waiting = list(
        BotVersion.objects.filter(status=Status.PENDING, status_changed_at__lt=cutoff).values_list(
            "pk", "status_changed_at"
        )
    )
    lost = dispatch.lost_by_broker([at for _, at in waiting], VALIDATION_QUEUE)
    ids = [pk for (pk, _), is_lost in zip(waiting, lost, strict=True) if is_lost]
    for pk in ids:
        with transaction.atomic():
            BotVersion.objects.filter(pk=pk).update(status_changed_at=timezone.now())
            dispatch.on_commit_validate(pk)
    return ids


def release_validation(version_id: int) -> bool:
    """A validation interrupted by a stop of the platform goes back to ``pending`` (it
    is validated again, from the start, at the next start)."""
    released = BotVersion.objects.filter(pk=version_id, status=Status.VALIDATING).update(
        status=Status.PENDING, status_changed_at=timezone.now()
    )
    return released == 1
