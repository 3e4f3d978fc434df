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

    class Status(models.TextChoices):
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=120)
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.ROUND_ROBIN)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    table_size = models.PositiveSmallIntegerField(default=4)
    cycles = models.PositiveSmallIntegerField(
        default=1, help_text="Every pair of entries shares at least this many tables."
    )
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

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """One version entered in a tournament."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="entries")
    version = models.ForeignKey(BotVersion, models.PROTECT, related_name="entries")

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "version"], name="enter_once"),
        ]

    def __str__(self) -> str:
        return f"{self.version} in {self.tournament}"
