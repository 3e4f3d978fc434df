"""Tournaments and their entries (the matches point at their tournament)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from catan_arena.submissions.models import BotVersion


class Tournament(models.Model):
    """A competition among entered versions, played as scheduled matches."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "round robin"
        DUPLICATE = "duplicate", "duplicate round robin"
        SWISS = "swiss", "Swiss"

    class Status(models.TextChoices):
        DRAFT = "draft"
        """Being set up by its organizer; entries closed."""
        OPEN = "open"
        """Entries open; it starts at ``starts_at`` (or when its organizer starts it)."""
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    NOT_STARTED = (Status.DRAFT, Status.OPEN)
    """Before its start: settings may change, entries be withdrawn, a start be set."""

    name = models.CharField(max_length=120)
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.ROUND_ROBIN)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    table_size = models.PositiveSmallIntegerField(default=4)
    cycles = models.PositiveSmallIntegerField(
        default=1, help_text="Round robins: every pair of entries shares at least this many tables."
    )
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss: rounds to play (blank: enough for the field)."
    )
    games_per_table = models.PositiveSmallIntegerField(
        default=1,
        help_text="Swiss: games each table plays, seats rotated between them (round "
        "robins play every grouping once in every seat rotation).",
    )
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="When beat starts it (entries close then)."
    )
    started_at = models.DateTimeField(null=True, blank=True)
    max_entries = models.PositiveIntegerField(null=True, blank=True)
    entries_per_author = models.PositiveSmallIntegerField(
        default=1, help_text="How many versions one author may enter."
    )
    note = models.TextField(blank=True, help_text="Why it did not start, or was cancelled.")
    ladder = models.BooleanField(default=False, help_text="Its matches also move the ladder.")
    rules = models.JSONField(default=dict, blank=True)
    decision_seconds = models.FloatField()
    time_bank_seconds = models.FloatField(default=0.0)
    pair_imbalance = models.PositiveSmallIntegerField(
        default=0, help_text="Most minus fewest meetings of a pair (0: every pair equally)."
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        permissions = [("organize", "Can organize tournaments")]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_due")]

    def __str__(self) -> str:
        return self.name

    @property
    def takes_entries(self) -> bool:
        """Whether bots may be entered now: only while open (a draft is being set up)."""
        return self.status == self.Status.OPEN


class Entry(models.Model):
    """One version entered in a tournament."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="entries")
    version = models.ForeignKey(BotVersion, models.PROTECT, related_name="entries")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True, null=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "version"], name="enter_once"),
        ]

    def __str__(self) -> str:
        return f"{self.version} in {self.tournament}"
