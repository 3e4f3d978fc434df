"""The continuous ladder's settings (one row): running or paused, and its table shape."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from arena_runner.clock_limits import DECISION_SECONDS, TIME_BANK_SECONDS, clock_problem
from catan_arena.core.limits import table_size_problem


class LadderSettings(models.Model):
    """The ladder's one settings row (:meth:`current`)."""

    paused = models.BooleanField(default=False, help_text="No new ladder matches while set.")
    tables_in_flight = models.PositiveSmallIntegerField(
        default=4, help_text="Ladder matches kept queued or running at a time."
    )
    table_size = models.PositiveSmallIntegerField(
        default=4, help_text="Seats per table (3 when fewer authors are free)."
    )
    decision_seconds = models.FloatField(default=DECISION_SECONDS)
    time_bank_seconds = models.FloatField(default=TIME_BANK_SECONDS)
    settled_games = models.PositiveIntegerField(
        default=100,
        help_text="Once every version on the ladder has this many rated games, the ladder "
        "plays in the background (a version with fewer puts it back to full speed).",
    )
    background_interval_seconds = models.FloatField(
        default=60.0, help_text="Settled, the ladder starts at most one match this often."
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = verbose_name_plural = "ladder settings"

    def __str__(self) -> str:
        return "ladder (paused)" if self.paused else "ladder (running)"

    def clean(self) -> None:
        """The admin's check: the clock within :mod:`arena_runner.clock_limits`'s bounds,
        tables of a size a tournament may have."""
        problem = clock_problem(self.decision_seconds, self.time_bank_seconds)
        if problem is not None:
            raise ValidationError(problem)
        problem = table_size_problem(self.table_size)
        if problem is not None:
            raise ValidationError({"table_size": problem})

    ROW = 1
    """The one row of settings."""

    @classmethod
    def current(cls) -> LadderSettings:
        settings_row, _ = cls.objects.get_or_create(pk=cls.ROW)
        return settings_row
