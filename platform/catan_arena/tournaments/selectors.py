"""Reads on tournaments: progress and standings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Count, IntegerField, Max, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from catan_arena.matches.models import Match, MatchSeat
from catan_arena.ratings.strength import (
    GameResult,
    HeadToHead,
    Strength,
    head_to_head,
    strength_table,
)
from catan_arena.tournaments import swiss
from catan_arena.tournaments.models import Entry, Tournament


@dataclass
class Standing:
    """One entry's results so far. Placing points: a table of n gives n - place (4
    players: 3, 2, 1, 0; equal places get equal points)."""

    version_id: int
    name: str
    games: int = 0
    wins: int = 0
    placing_points: int = 0
    victory_points: int = 0
    faults: int = 0
    forfeits: int = 0
    places: list[int] = field(default_factory=list)
    buchholz: float = 0.0
    """Swiss tie-break: the sum over its games of its table-mates' mean placing points."""

    @property
    def mean_points(self) -> float:
        return self.victory_points / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def standings(tournament: Tournament) -> list[Standing]:
    """Entries by placing points, then wins, then mean victory points (Swiss: by
    placing points, Buchholz, mean victory points, wins: :func:`.swiss.tie_break_key`)."""
    table = {
        e.version_id: Standing(e.version_id, str(e.version))
        for e in tournament.entries.select_related("version__bot")
    }
    seats = (
        MatchSeat.objects.filter(match__tournament=tournament, match__status=Match.Status.FINISHED)
        .select_related("match")
        .only("version_id", "won", "placing", "points", "fault_count", "forfeit", "match__rules")
    )
    for seat in seats:
        row = table[seat.version_id]
        row.games += 1
        row.wins += int(seat.won)
        place = seat.placing or seat.match.players
        row.placing_points += seat.match.players - place
        row.victory_points += seat.points or 0
        row.faults += seat.fault_count
        row.forfeits += int(seat.forfeit is not None)
        row.places.append(place)
    if tournament.format == Tournament.Format.SWISS:
        scores = {pk: float(row.placing_points) for pk, row in table.items()}
        tie = swiss.buchholz(scores, swiss_history(tournament, finished_only=True))
        for pk, row in table.items():
            row.buchholz = tie[pk]
        means = {pk: row.mean_points for pk, row in table.items()}
        wins = {pk: row.wins for pk, row in table.items()}
        return [
            table[pk]
            for pk in sorted(
                table, key=lambda pk: swiss.tie_break_key(pk, scores, tie, means, wins)
            )
        ]
    return sorted(
        table.values(), key=lambda s: (-s.placing_points, -s.wins, -s.mean_points, s.name)
    )


def swiss_standings(tournament: Tournament) -> dict[int, float]:
    """Each entry's placing points so far (what a Swiss round pairs by)."""
    return {row.version_id: float(row.placing_points) for row in standings(tournament)}


def swiss_history(tournament: Tournament, *, finished_only: bool = False) -> list[tuple[int, ...]]:
    """Every table of the tournament so far (version ids in seat order), oldest first;
    all but voided ones, or only the finished."""
    matches = Match.objects.filter(tournament=tournament)
    if finished_only:
        matches = matches.filter(status=Match.Status.FINISHED)
    else:
        matches = matches.exclude(status=Match.Status.VOID)
    tables: dict[int, list[int]] = {}
    seats = MatchSeat.objects.filter(match__in=matches).order_by("match_id", "seat")
    for match_id, version_id in seats.values_list("match_id", "version_id"):
        tables.setdefault(match_id, []).append(version_id)
    return [tuple(t) for t in tables.values()]


@dataclass(frozen=True)
class Progress:
    total: int
    done: int
    finished: int
    failed: int
    running: int


def progress(tournament: Tournament) -> Progress:
    """Games done of the total (a running Swiss tournament's total counts the rounds
    still to be paired as the size of its first)."""
    counts = {s: 0 for s in Match.Status}
    first_round = 0
    for status, number in Match.objects.filter(tournament=tournament).values_list(
        "status", "round"
    ):
        counts[Match.Status(status)] += 1
        first_round += number == 1
    done = sum(counts[s] for s in Match.DONE)
    total = sum(counts.values())
    if (
        tournament.format == Tournament.Format.SWISS
        and tournament.status == Tournament.Status.RUNNING
    ):
        total = max(total, first_round * (tournament.rounds or 1))
    return Progress(
        total=total,
        done=done,
        finished=counts[Match.Status.FINISHED],
        failed=counts[Match.Status.FAILED],
        running=counts[Match.Status.RUNNING],
    )


def table_sizes(tournament: Tournament) -> list[int]:
    """The table sizes its games were made with, smallest first (``table_size`` is the
    most: a field that does not divide into it plays tables of 3); [] before any game."""
    sizes = (
        Match.objects.filter(tournament=tournament)
        .order_by()
        .values_list("rules__players", flat=True)
        .distinct()
    )
    return sorted(int(n) for n in sizes if n is not None)


def with_progress() -> QuerySet[Tournament]:
    """Tournaments, newest first, annotated with ``games_total``, ``games_done`` (finished,
    failed or void) and ``entry_count``, in one query (a count per tournament each, not
    a join of its matches with its entries)."""
    matches = Match.objects.filter(tournament=OuterRef("pk"))
    entries = Entry.objects.filter(tournament=OuterRef("pk"))
    return Tournament.objects.annotate(
        games_total=_count(matches),
        games_done=_count(matches.filter(status__in=Match.DONE)),
        entry_count=_count(entries),
    ).order_by("-id")


def _count(rows: QuerySet[Any]) -> Coalesce:
    """How many ``rows`` (a queryset filtered on an ``OuterRef``), as a subquery."""
    counted = rows.order_by().values("tournament").annotate(n=Count("id")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def game_results(tournament: Tournament) -> list[GameResult]:
    """Every finished game of the tournament as its placings (version id → place)."""
    games: dict[int, dict[int, int]] = {}
    seats = MatchSeat.objects.filter(
        match__tournament=tournament, match__status=Match.Status.FINISHED
    ).order_by("match_id", "seat")
    for match_id, version_id, placing in seats.values_list("match_id", "version_id", "placing"):
        games.setdefault(match_id, {})[version_id] = placing or 4
    return list(games.values())


def strengths(tournament: Tournament, *, samples: int = 100) -> dict[int, Strength]:
    """Each entry's Plackett–Luce strength with its bootstrap 95% interval and tied
    group (order-independent: the same games in any order give the same numbers)."""
    entries = list(tournament.entries.values_list("version_id", flat=True))
    table = strength_table(entries, game_results(tournament), samples=samples)
    return {row.entry: row for row in table}


TABLE_SECONDS = 7 * 24 * 3600
"""How long a standings table stays cached (a new result makes a new key: never stale)."""


def standings_table(tournament: Tournament) -> list[tuple[Standing, Strength]]:
    """:func:`standings` with each entry's :func:`strengths`, kept in the shared cache
    under the tournament's finished games (their count and newest id: a result recorded
    makes a new key, so what is read is never stale). Its receiver of ``match_done``
    fills the new key once the result is committed (:func:`refresh_standings_table`),
    so a spectator rarely pays for the bootstrap; before the first result (entries may
    still change) it is computed each time, which costs nothing without games."""
    finished = Match.objects.filter(tournament=tournament, status=Match.Status.FINISHED)
    stamp = finished.aggregate(games=Count("id"), last=Max("id"))
    key = f"tournament-table:{tournament.pk}:{stamp['games']}:{stamp['last']}"
    found = cache.get(key) if stamp["games"] else None
    if not isinstance(found, list):
        fitted = strengths(tournament)
        found = [(row, fitted[row.version_id]) for row in standings(tournament)]
        if stamp["games"]:
            cache.set(key, found, timeout=TABLE_SECONDS)
    return found


def refresh_standings_table(tournament_id: int) -> None:
    """Compute and cache a tournament's :func:`standings_table` (after a result)."""
    tournament = tournament_by_pk(tournament_id)
    if tournament is not None:
        standings_table(tournament)


def head_to_head_table(tournament: Tournament) -> dict[tuple[int, int], HeadToHead]:
    return head_to_head(game_results(tournament))


def tournament_by_pk(pk: int) -> Tournament | None:
    return Tournament.objects.filter(pk=pk).first()


def entries_of(tournament_id: int) -> QuerySet[Entry]:
    """A tournament's entries with their versions, bots and owners, in entry order."""
    return (
        Entry.objects.filter(tournament_id=tournament_id)
        .select_related("version__bot__owner")
        .order_by("id")
    )


def entered_version_ids(tournament: Tournament) -> set[int]:
    return set(tournament.entries.values_list("version_id", flat=True))
