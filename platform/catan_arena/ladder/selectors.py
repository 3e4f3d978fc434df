"""Reads for the ladder's matchmaking: who may play, and how much each has played."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import BooleanField, Count, ExpressionWrapper, QuerySet
from django.utils import timezone

from catan_arena.ladder.matchmaking import Candidate
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.pace import Pace, ladder_pace
from catan_arena.matches.models import Match, MatchSeat, SeatTally
from catan_arena.ratings.models import Rating
from catan_arena.ratings.selectors import ladder as rated
from catan_arena.ratings.systems import openskill_start
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.selectors import author_key, playing_versions, plays


def ladder_versions() -> list[BotVersion]:
    """The versions on the ladder: the versions that play
    (:func:`~catan_arena.submissions.selectors.plays`; the API's ``on_ladder``)."""
    return playing_versions()


def ranked() -> QuerySet[Rating]:
    """The ladder as the site ranks it: the ratings of the versions on the ladder
    (:func:`ladder_versions`' rule), best Elo first. A bot's older versions and a
    withdrawn one are left off (the API's ladder lists every rated version; a version's
    ``on_ladder`` tells)."""
    on_ladder = BotVersion.objects.filter(plays()).values("pk")
    return rated().filter(version__in=on_ladder)


def with_on_ladder(versions: QuerySet[BotVersion]) -> QuerySet[BotVersion]:
    """``versions`` annotated with ``on_ladder`` (:func:`ladder_versions`' rule, in SQL)."""
    return versions.annotate(on_ladder=ExpressionWrapper(plays(), output_field=BooleanField()))


def is_on_ladder(version: BotVersion) -> bool:
    """Whether ``version`` is on the ladder (:func:`ladder_versions`' rule)."""
    return BotVersion.objects.filter(plays(), pk=version.pk).exists()


def playable_versions() -> QuerySet[BotVersion]:
    """The versions that may be entered into anything that plays them: active, not
    withdrawn (:func:`why_not_playable` says why another may not)."""
    return BotVersion.objects.filter(status=BotVersion.Status.ACTIVE, withdrawn_at__isnull=True)


def why_not_playable(version: BotVersion) -> str | None:
    """Why ``version`` may not be entered into anything that plays it (an A/B test, as A,
    B or an opponent; a tournament), or None: only active versions its author has not
    withdrawn. Whoever asks, the author included: withdrawn means off until reinstated."""
    if version.status != BotVersion.Status.ACTIVE:
        return f"{version} is {version.status}: only active versions can play"
    if version.withdrawn_at is not None:
        return f"{version} is withdrawn by its author: it plays nowhere until reinstated"
    return None


def matchmaker_matches() -> QuerySet[Match]:
    """Ladder matches made by the matchmaker (not by a tournament)."""
    return Match.objects.filter(ladder=True, tournament__isnull=True)


def matchmaker_in_flight() -> int:
    """Ladder matches made by the matchmaker still to be played."""
    return matchmaker_matches().filter(status__in=Match.IN_FLIGHT).count()


def pace(
    ladder: LadderSettings, field: list[Candidate] | None = None, in_flight: int | None = None
) -> Pace:
    """How fast the ladder plays now (:mod:`catan_arena.ladder.pace`): full speed while
    a version has fewer than ``settled_games`` rated games, else the background rate.
    ``field`` and ``in_flight``: the caller's :func:`candidates` and
    :func:`matchmaker_in_flight`, if it has them."""
    field = candidates() if field is None else field
    in_flight = matchmaker_in_flight() if in_flight is None else in_flight
    last = matchmaker_matches().order_by("-created_at").values_list("created_at", flat=True)
    last_made = last.first()
    return ladder_pace(
        [c.games for c in field],
        free_slots=ladder.tables_in_flight - in_flight,
        settled_games=ladder.settled_games,
        background_interval=ladder.background_interval_seconds,
        since_last_match=None
        if last_made is None
        else (timezone.now() - last_made).total_seconds(),
    )


def candidates() -> list[Candidate]:
    """Every ladder version with its games, μ, matches in flight and seat counts (its
    finished ladder games per seat: the tallies counted as results were recorded)."""
    versions = ladder_versions()
    ids = [v.pk for v in versions]
    ratings = {r.version_id: r for r in Rating.objects.filter(version_id__in=ids)}
    start_mu = openskill_start()[0]
    busy = dict(
        MatchSeat.objects.filter(
            version_id__in=ids, match__ladder=True, match__status__in=Match.IN_FLIGHT
        )
        .values_list("version_id")
        .annotate(n=Count("id"))
        .values_list("version_id", "n")
    )
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    tallies = SeatTally.objects.filter(version_id__in=ids, ladder=True)  # finished ladder games
    for version_id, seat, n in tallies.values_list("version_id", "seat", "games"):
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
