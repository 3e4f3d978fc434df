"""Reads for the pages, each a bounded number of queries whatever the data's size."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import F, Prefetch, Q, QuerySet, Sum, Window
from django.db.models.functions import RowNumber

from catan_arena.abtests.models import ABTest
from catan_arena.abtests.selectors import describe as describe_ab_test
from catan_arena.abtests.selectors import visible_ab_tests
from catan_arena.accounts.models import User
from catan_arena.ladder.selectors import ranked
from catan_arena.matches.models import Match, MatchSeat, Meeting, SeatTally
from catan_arena.matches.selectors import with_seats
from catan_arena.ratings.models import Rating
from catan_arena.ratings.systems import is_provisional
from catan_arena.submissions.models import Bot, BotVersion
from catan_arena.submissions.selectors import with_playing_version
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.selectors import with_progress

LADDER_SORTS = ("elo", "mu", "games", "wins", "bot")
"""The orders the ladder page offers (rank is by Elo in every one)."""


@dataclass(frozen=True)
class LadderRow:
    rank: int
    rating: Rating
    provisional: bool
    win_rate: float
    trend: float
    """Elo change over its last 10 ladder games."""


def ladder_rows(sort: str = "elo", limit: int | None = None) -> list[LadderRow]:
    """The ladder in ``sort`` order (rank is by Elo whatever the order): the versions
    that play (:func:`~catan_arena.ladder.selectors.ranked`)."""
    ratings = list(ranked())
    rank = {r.version_id: i for i, r in enumerate(ratings, 1)}
    trend = _trends([r.version_id for r in ratings])
    rows = [
        LadderRow(
            rank[r.version_id],
            r,
            is_provisional(r.games),
            r.wins / r.games if r.games else 0.0,
            trend.get(r.version_id, 0.0),
        )
        for r in ratings
    ]
    key = {
        "mu": lambda row: (-row.rating.mu, row.rank),
        "games": lambda row: (-row.rating.games, row.rank),
        "wins": lambda row: (-row.win_rate, row.rank),
        "bot": lambda row: (row.rating.version.bot.name, row.rank),
    }.get(sort)
    if key is not None:
        rows.sort(key=key)
    return rows[:limit] if limit else rows


def _trends(version_ids: list[int], games: int = 10) -> dict[int, float]:
    """Each version's Elo change over its last ``games`` rated games (one query: only
    those rows leave the database, numbered newest first per version)."""
    from catan_arena.ratings.models import RatingChange

    newest = Window(RowNumber(), partition_by=F("version_id"), order_by=F("match_id").desc())
    rows = (
        RatingChange.objects.filter(version_id__in=version_ids)
        .annotate(newest=newest)
        .filter(newest__lte=games)
        .values_list("version_id", "elo_before", "elo_after")
    )
    trends: dict[int, float] = {}
    for version_id, before, after in rows:
        trends[version_id] = trends.get(version_id, 0.0) + after - before
    return trends


def match_list() -> QuerySet[Match]:
    return with_seats().defer("seed", "attempt_log")


def match_rows() -> QuerySet[Match]:
    """Matches as the lists show them (``web/_matches.html``: number, status, finish,
    each seat's bot, place and points), only those columns, in two queries."""
    seats = MatchSeat.objects.select_related("version__bot").only(
        "match_id", "seat", "placing", "points", "version__bot_id", "version__bot__name"
    )
    rows = Match.objects.only("id", "status", "finished_at", "tournament_id", "round")
    return rows.prefetch_related(Prefetch("seats", seats))


def fixtures(tournament: Tournament) -> QuerySet[Match]:
    """A tournament's matches, round by round (the page shows them a page at a time)."""
    return match_rows().filter(tournament=tournament).order_by("round", "id")


def live_and_recent(limit: int = 10) -> tuple[list[Match], list[Match]]:
    live = list(match_rows().filter(status=Match.Status.RUNNING).order_by("-id")[:limit])
    recent = list(
        match_rows().filter(status=Match.Status.FINISHED).order_by("-finished_at")[:limit]
    )
    return live, recent


def upcoming_tournaments(limit: int = 5) -> list[Tournament]:
    open_or_running = Q(status__in=(Tournament.Status.OPEN, Tournament.Status.RUNNING))
    return list(Tournament.objects.filter(open_or_running).order_by("starts_at", "-id")[:limit])


def bot_page(name: str) -> Bot | None:
    versions = BotVersion.objects.order_by("-number").select_related("rating")
    return (
        with_playing_version(Bot.objects.select_related("owner"))
        .prefetch_related(Prefetch("versions", versions))
        .filter(name=name)
        .first()
    )


def seat_statistics(bot: Bot) -> list[dict[str, float]]:
    """Per seat: games, wins and mean place of the bot's finished games, every version
    (one query over the tallies counted as results were recorded)."""
    sums = {f: Sum(f) for f in ("games", "wins", "placed", "placings")}
    rows = SeatTally.objects.filter(version__bot=bot).values("seat").annotate(**sums)
    return [
        {
            "seat": row["seat"],
            "games": row["games"],
            "wins": row["wins"],
            "mean_place": row["placings"] / row["placed"] if row["placed"] else 0.0,
        }
        for row in rows.order_by("seat")
    ]


def tournament_list() -> QuerySet[Tournament]:
    return with_progress()


@dataclass(frozen=True)
class HeadToHead:
    opponent: str
    games: int
    ahead: int
    """Games the bot placed ahead of this opponent."""
    behind: int

    @property
    def share(self) -> float:
        return self.ahead / self.games if self.games else 0.0


def head_to_head(bot: Bot) -> list[HeadToHead]:
    """Against each other bot it met in its finished games (every version of either):
    games together, and how often it placed ahead or behind, most games first (one
    query over the meetings counted as results were recorded)."""
    rows = (
        Meeting.objects.filter(version__bot=bot)
        .exclude(opponent__bot=bot)
        .values("opponent__bot__name")
        .annotate(together=Sum("games"), won=Sum("ahead"), lost=Sum("behind"))
        .values_list("opponent__bot__name", "together", "won", "lost")
    )
    return sorted(
        (HeadToHead(name, games, ahead, behind) for name, games, ahead, behind in rows),
        key=lambda r: (-r.games, r.opponent),
    )


def ab_tests_of(
    bot: Bot, viewer: User | AnonymousUser, limit: int = 20
) -> list[tuple[ABTest, str]]:
    """The bot's latest A/B tests ``viewer`` may see, with their running result in words."""
    tests = (
        visible_ab_tests(viewer)
        .filter(version_b__bot=bot)
        .select_related("version_a__bot", "version_b__bot")
        .order_by("-id")[:limit]
    )
    return [(test, describe_ab_test(test)) for test in tests]
