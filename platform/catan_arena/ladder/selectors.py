"""Reads for the ladder's matchmaking: who may play, and how much each has played."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count

from catan_arena.ladder.matchmaking import Candidate
from catan_arena.matches.models import Match, MatchSeat
from catan_arena.ratings.models import Rating
from catan_arena.ratings.systems import openskill_start
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.selectors import author_key, playing_versions

IN_FLIGHT = (Match.Status.QUEUED, Match.Status.RUNNING)


def ladder_versions() -> list[BotVersion]:
    """The versions on the ladder: each bot's newest active version, unless its author
    withdrew it (then the bot is off the ladder until a newer version is active)."""
    return [v for v in playing_versions() if v.withdrawn_at is None]


def matchmaker_in_flight() -> int:
    """Ladder matches made by the matchmaker (not by a tournament) still to be played."""
    return Match.objects.filter(ladder=True, tournament__isnull=True, status__in=IN_FLIGHT).count()


def candidates() -> list[Candidate]:
    """Every ladder version with its games, μ, matches in flight and seat counts."""
    versions = ladder_versions()
    ids = [v.pk for v in versions]
    ratings = {r.version_id: r for r in Rating.objects.filter(version_id__in=ids)}
    start_mu = openskill_start()[0]
    busy = dict(
        MatchSeat.objects.filter(
            version_id__in=ids, match__ladder=True, match__status__in=IN_FLIGHT
        )
        .values_list("version_id")
        .annotate(n=Count("id"))
        .values_list("version_id", "n")
    )
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    finished = MatchSeat.objects.filter(
        version_id__in=ids, match__ladder=True, match__status=Match.Status.FINISHED
    )
    for version_id, seat, n in (
        finished.values_list("version_id", "seat")
        .annotate(n=Count("id"))
        .values_list("version_id", "seat", "n")
    ):
        seats[version_id][seat] = n
    out = []
    for version in versions:
        rating = ratings.get(version.pk)
        out.append(
            Candidate(
                version=version.pk,
                author=author_key(version),
                games=rating.games if rating else 0,
                mu=rating.mu if rating else start_mu,
                busy=busy.get(version.pk, 0),
                seats=tuple(seats[version.pk]),
            )
        )
    return out
