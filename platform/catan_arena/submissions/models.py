"""Bots and their versions. A version is immutable: its bytes live in a
:class:`BotContent` row named by their sha256 (shared by identical uploads)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Bot(models.Model):
    """A named bot of one author; its newest active version is the one that plays."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="bots")
    name = models.SlugField(max_length=40, unique=True)
    description = models.TextField(blank=True, max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class BotContent(models.Model):
    """The bytes of an uploaded ``.py`` file or ``.zip`` package, by their sha256."""

    sha256 = models.CharField(max_length=64, primary_key=True)
    data = models.BinaryField()
    size = models.PositiveIntegerField()

    def __str__(self) -> str:
        return self.sha256[:12]


class BotVersion(models.Model):
    """One upload of a bot: ``pending → validating → active`` or ``rejected``."""

    class Status(models.TextChoices):
        PENDING = "pending"
        VALIDATING = "validating"
        ACTIVE = "active"
        REJECTED = "rejected"

    IN_VALIDATION = (Status.PENDING, Status.VALIDATING)
    """Waiting for validation or in it: the one definition of "still validating"."""

    class Kind(models.TextChoices):
        PY = "py", "single .py file"
        ZIP = "zip", "zip package"

    bot = models.ForeignKey(Bot, models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    content = models.ForeignKey(BotContent, models.PROTECT, related_name="versions")
    kind = models.CharField(max_length=3, choices=Kind.choices)
    filename = models.CharField(max_length=255, help_text="The uploaded file's name.")
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    report = models.TextField(
        blank=True,
        help_text="The validation report for its author: what the bot printed, its "
        "traceback and exception text included (never shown to anyone else).",
    )
    summary = models.TextField(
        blank=True,
        help_text="The verdict for everyone: passed, or rejected with a plain reason "
        "(arena_runner.disclosure); no output of the bot's, no paths.",
    )
    builtin = models.CharField(
        max_length=20, blank=True, help_text="The built-in bot this version is (trusted)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    status_changed_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(
        null=True, blank=True, help_text="Withdrawn from the ladder by its author."
    )
    inherits_from = models.ForeignKey(
        "self",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The version whose ladder rating it starts from (σ widened), if asked.",
    )

    class Meta:
        ordering = ["bot__name", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="version_number_unique"),
            models.UniqueConstraint(fields=["bot", "content"], name="version_content_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def sha256(self) -> str:
        return str(self.content_id)
