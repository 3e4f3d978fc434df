"""Matches and their seats."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from catan_arena.core.queues import MATCH_BACKGROUND, MATCH_PERSON, MATCH_WAITED_FOR
from catan_arena.submissions.models import BotVersion


class Match(models.Model):
    """One game: ``queued → running → finished | failed | void``.

    ``void`` is an attempt that did not count (a platform fault) and was not retried;
    one that is retried goes back to ``queued`` with the reason in ``attempt_log``.
    ``failed``: every attempt was voided."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"
        VOID = "void"

    class Priority(models.IntegerChoices):
        PERSON = MATCH_PERSON, "a person plays in it"
        WAITED_FOR = MATCH_WAITED_FOR, "someone waits for it"
        BACKGROUND = MATCH_BACKGROUND, "the ladder's routine"

    IN_FLIGHT = (Status.QUEUED, Status.RUNNING)
    """Still to be played (queued or running): the one definition of "in flight"."""
    DONE = (Status.FINISHED, Status.FAILED, Status.VOID)
    """Nothing more will happen to it: finished, failed or void."""

    created_at = models.DateTimeField(auto_now_add=True)
    seed = models.CharField(max_length=64, help_text="The game's secret seed (hex).")
    rules = models.JSONField(default=dict, help_text="RulesConfig as JSON.")
    decision_seconds = models.FloatField()
    time_bank_seconds = models.FloatField(default=0.0)
    game_seconds = models.FloatField(help_text="Each seat's wall-clock budget for the game.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    queued_at = models.DateTimeField(
        null=True, blank=True, default=timezone.now, help_text="When it was last queued."
    )
    priority = models.PositiveSmallIntegerField(
        choices=Priority.choices,
        default=Priority.WAITED_FOR,
        help_text="Queued matches are played lowest first, then oldest first.",
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    max_attempts = models.PositiveSmallIntegerField(default=3)
    attempt_log = models.JSONField(default=list, blank=True)
    ladder = models.BooleanField(
        default=False, help_text="Moves the ladder's ratings (else counts for its tournament)."
    )
    rating_done = models.BooleanField(
        default=False, help_text="The ladder has processed this match (rated or skipped)."
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", models.CASCADE, null=True, blank=True, related_name="matches"
    )
    round = models.PositiveIntegerField(null=True, blank=True)
    ab_test = models.ForeignKey(
        "abtests.ABTest", models.CASCADE, null=True, blank=True, related_name="matches"
    )
    worker = models.CharField(max_length=200, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="The playing worker's last sign of life."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    duration_seconds = models.FloatField(null=True, blank=True)
    replay = models.BinaryField(null=True, blank=True, help_text="gzip-compressed JSON.")
    replay_sha256 = models.CharField(max_length=64, blank=True)
    turns = models.PositiveIntegerField(null=True, blank=True)
    termination = models.CharField(max_length=40, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    sandbox_tier = models.CharField(max_length=40, blank=True)
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        null=True,
        blank=True,
        related_name="person_games",
        help_text="A game with a person in one seat (:class:`PersonSeat`): never rated.",
    )
    live = models.JSONField(
        null=True,
        blank=True,
        help_text="While running: the replay so far (seed included: never sent to a client "
        "as is), rewritten about once a second for the live view; cleared when it ends.",
    )

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["status", "deadline"], name="match_status_deadline"),
            models.Index(fields=["status", "priority", "id"], name="match_next_queued"),
            models.Index(fields=["ladder", "rating_done", "id"], name="match_ladder_pending"),
            models.Index(fields=["created_at"], name="match_created"),
            models.Index(fields=["status", "-finished_at"], name="match_status_finished"),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.status})"

    @property
    def players(self) -> int:
        return int(self.rules.get("players", 4))

    @property
    def kind(self) -> str:
        """What the match was made for, one of :data:`KINDS`: a tournament's game (which
        may also move the ladder: ``ladder``), an A/B test's, the ladder's, or none of
        them (an exhibition); or a game a person played against bots (``person``)."""
        if self.person_id is not None:
            return "person"
        if self.tournament_id is not None:
            return "tournament"
        if self.ab_test_id is not None:
            return "ab_test"
        return "ladder" if self.ladder else "exhibition"

    KINDS = ("tournament", "ab_test", "ladder", "exhibition", "person")


class MatchSeat(models.Model):
    """One seat of a match: its version, and once finished how it did and behaved."""

    match = models.ForeignKey(Match, models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey(BotVersion, models.PROTECT, related_name="seats")
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    placing = models.PositiveSmallIntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)
    forfeit = models.JSONField(null=True, blank=True)
    faults = models.JSONField(default=list, blank=True)
    fault_count = models.PositiveIntegerField(default=0)
    decisions = models.PositiveIntegerField(default=0)
    mean_decision_ms = models.FloatField(null=True, blank=True)
    max_decision_ms = models.FloatField(null=True, blank=True)
    cpu_seconds = models.FloatField(null=True, blank=True)
    bank_left_seconds = models.FloatField(
        null=True, blank=True, help_text="What was left of the time bank at the end."
    )
    log = models.TextField(blank=True, help_text="What the bot printed (its owner's eyes only).")

    class Meta:
        ordering = ["match_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="one_version_per_seat"),
        ]
        indexes = [models.Index(fields=["version", "match"], name="seat_version_match")]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}"


class PersonSeat(models.Model):
    """The seat a person plays in a match, and the one decision between the person's
    page and the worker (:mod:`catan_arena.matches.person`): the worker posts ``step``
    and its ``legal`` actions with a ``deadline``; the person's checked ``answer`` for
    that step; ``seen_at``, the person's page's last poll (absence forfeits)."""

    match = models.OneToOneField(
        Match, models.CASCADE, primary_key=True, related_name="person_seat"
    )
    seat = models.PositiveSmallIntegerField()
    decision_seconds = models.FloatField(help_text="The person's clock per decision.")
    away_seconds = models.FloatField(help_text="Unseen this long: forfeited to the autopilot.")
    step = models.PositiveIntegerField(
        null=True, blank=True, help_text="The decision waiting for the person (None: none)."
    )
    legal = models.JSONField(default=list, blank=True, help_text="Its legal actions (JSON).")
    deadline = models.DateTimeField(null=True, blank=True)
    answer = models.JSONField(null=True, blank=True, help_text="The person's checked action.")
    seen_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"match {self.match_id}: a person in seat {self.seat}"


class SeatTally(models.Model):
    """A version's finished games in one seat, ladder or not: what its bot page and the
    ladder's seat balance add up, counted when each result is recorded
    (:mod:`catan_arena.matches.tallies`), so no page aggregates the whole history."""

    version = models.ForeignKey(BotVersion, models.CASCADE, related_name="seat_tallies")
    seat = models.PositiveSmallIntegerField()
    ladder = models.BooleanField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    placed = models.PositiveIntegerField(default=0, help_text="Games with a placing.")
    placings = models.PositiveIntegerField(default=0, help_text="The sum of those placings.")
    points = models.PositiveIntegerField(default=0, help_text="Victory points, summed.")
    forfeits = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["version", "seat", "ladder"], name="one_seat_tally"),
        ]

    def __str__(self) -> str:
        return f"{self.version} seat {self.seat}: {self.games} games"


class Meeting(models.Model):
    """How often a version shared a finished game with another (``opponent``) and placed
    ahead of or behind it: the head-to-head, counted when each result is recorded."""

    version = models.ForeignKey(BotVersion, models.CASCADE, related_name="meetings")
    opponent = models.ForeignKey(BotVersion, models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    ahead = models.PositiveIntegerField(default=0)
    behind = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["version", "opponent"], name="one_meeting_row"),
        ]

    def __str__(self) -> str:
        return f"{self.version} v {self.opponent}: {self.ahead}-{self.behind} of {self.games}"
