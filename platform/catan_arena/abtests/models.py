"""A/B tests of two versions: paired duplicate games, stopped by a sequential test."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from catan_arena.core.limits import AB_PAIRS_DEFAULT
from catan_arena.ratings.sprt import DEFAULT_RISK
from catan_arena.submissions.models import BotVersion


class ABTest(models.Model):
    """ "Does version B beat version A?", answered by pairs of games: the same seed
    (board, dice, cards) and the same opponents in the same seats, once with A and
    once with B in the tested seat; stopped by the SPRT of :mod:`.ratings.sprt`."""

    class Status(models.TextChoices):
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class Verdict(models.TextChoices):
        PENDING = "pending", "no verdict yet"
        BETTER = "better", "B is better"
        NOT_BETTER = "not_better", "B is not better"
        INCONCLUSIVE = "inconclusive", "no verdict within the pair limit"

    version_a = models.ForeignKey(BotVersion, models.PROTECT, related_name="+")
    version_b = models.ForeignKey(BotVersion, models.PROTECT, related_name="+")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    opponents = models.ManyToManyField(
        BotVersion,
        blank=True,
        related_name="+",
        help_text="The opponents to draw from (blank: the ladder's bots of other authors).",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    verdict = models.CharField(max_length=12, choices=Verdict.choices, default=Verdict.PENDING)
    margin = models.FloatField(help_text="H1: B gains this many placing points a game.")
    alpha = models.FloatField(
        default=DEFAULT_RISK, help_text="Risk of calling B better when it is not."
    )
    beta = models.FloatField(default=DEFAULT_RISK, help_text="Risk of missing an improvement.")
    max_pairs = models.PositiveIntegerField(default=AB_PAIRS_DEFAULT)
    table_size = models.PositiveSmallIntegerField(default=4)
    decision_seconds = models.FloatField()
    time_bank_seconds = models.FloatField(default=0.0)
    pairs = models.PositiveIntegerField(default=0, help_text="Pairs counted so far.")
    mean = models.FloatField(default=0.0, help_text="Mean placing points of B minus A a pair.")
    llr = models.FloatField(default=0.0, help_text="The log-likelihood ratio so far.")
    lower = models.FloatField(default=0.0)
    upper = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = "A/B test"

    def __str__(self) -> str:
        return f"A/B test {self.pk}: {self.version_b} vs {self.version_a}"


class ABPair(models.Model):
    """Two games with one seed and one set of opponents: A's and B's."""

    test = models.ForeignKey(ABTest, models.CASCADE, related_name="pair_set")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(help_text="The seat A and B take in turn.")
    match_a = models.OneToOneField("matches.Match", models.PROTECT, related_name="+")
    match_b = models.OneToOneField("matches.Match", models.PROTECT, related_name="+")
    difference = models.FloatField(
        null=True, blank=True, help_text="B's placing points minus A's, once both are done."
    )
    void = models.BooleanField(default=False, help_text="A game of it did not finish.")

    class Meta:
        ordering = ["test_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["test", "number"], name="ab_pair_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.test} pair {self.number}"
