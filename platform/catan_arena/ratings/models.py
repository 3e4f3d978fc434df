"""Each version's ladder ratings, and every change a ladder match made to them."""

from __future__ import annotations

from django.db import models

from catan_arena.submissions.models import BotVersion


class Rating(models.Model):
    """A version's current ratings: the headline Elo and OpenSkill's (μ, σ)."""

    version = models.OneToOneField(
        BotVersion, models.CASCADE, primary_key=True, related_name="rating"
    )
    elo = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-elo"]
        indexes = [models.Index(fields=["-elo"], name="rating_elo_desc")]

    def __str__(self) -> str:
        return f"{self.version}: {self.elo:.0f}"


class RatingChange(models.Model):
    """What one ladder match did to one version's ratings (its rating history)."""

    match = models.ForeignKey("matches.Match", models.CASCADE, related_name="rating_changes")
    version = models.ForeignKey(BotVersion, models.CASCADE, related_name="rating_changes")
    placing = models.PositiveSmallIntegerField()
    games_before = models.PositiveIntegerField()
    provisional = models.BooleanField()
    elo_before = models.FloatField()
    elo_after = models.FloatField()
    mu_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_before = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["match_id", "version_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="one_change_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.version} in match {self.match_id}: {self.elo_after - self.elo_before:+.1f}"
