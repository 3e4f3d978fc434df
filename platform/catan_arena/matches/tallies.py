"""The pages' statistics, counted as results are recorded: each version's finished games
per seat (:class:`.SeatTally`: games, wins, placings, points, forfeits; ladder games apart)
and every pair of versions' head-to-head (:class:`.Meeting`).

:func:`count_result` adds one finished match, inside the transaction that recorded it
(the receiver of ``match_done``), so the tallies are exactly the finished history; only
:func:`~catan_arena.matches.services.record_result` makes a match ``finished`` and a
finished match never changes, so failed and void matches are never counted.
:func:`recompute_tallies` (``manage.py recompute_page_stats``, and the migration that
made the tables) rebuilds them from the history with the same figures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.db import connection, transaction

from catan_arena.core.statement_batches import Statement, execute_together
from catan_arena.matches.models import Match, MatchSeat, Meeting, SeatTally

SEAT_COLUMNS = ("version_id", "seat", "won", "placing", "points", "forfeit")
"""What a tally reads of a seat."""
TALLY_FIELDS = ("games", "wins", "placed", "placings", "points", "forfeits")
MEETING_FIELDS = ("games", "ahead", "behind")

SEAT_TALLIES_SQL = """
SELECT s.version_id, s.seat, m.ladder, COUNT(*),
       SUM(CASE WHEN s.won THEN 1 ELSE 0 END), COUNT(s.placing), COALESCE(SUM(s.placing), 0),
       COALESCE(SUM(s.points), 0), SUM(CASE WHEN s.forfeit IS NULL THEN 0 ELSE 1 END)
FROM {seat} s JOIN {match} m ON m.id = s.match_id
WHERE m.status = %s AND m.person_id IS NULL
GROUP BY s.version_id, s.seat, m.ladder
"""
"""Every version's finished games per seat and kind, from the history (one query)."""

MEETINGS_SQL = """
SELECT a.version_id, b.version_id, COUNT(*),
       SUM(CASE WHEN a.placing < b.placing THEN 1 ELSE 0 END),
       SUM(CASE WHEN a.placing > b.placing THEN 1 ELSE 0 END)
FROM {seat} a JOIN {seat} b ON b.match_id = a.match_id AND b.seat <> a.seat
JOIN {match} m ON m.id = a.match_id
WHERE m.status = %s AND m.person_id IS NULL
GROUP BY a.version_id, b.version_id
"""
"""Every ordered pair of versions' games together, from the history (one query)."""


def count_result(match: Match, rows: Sequence[MatchSeat] | None = None) -> None:
    """Add ``match`` (just recorded ``finished``) to the tallies; call inside the
    transaction that recorded it (``rows``: its seats as written, read again if not
    given). Anything else (``failed``) counts nothing, nor does a person's game
    (:mod:`.person`: the bots' record is their games among bots)."""
    if match.status != Match.Status.FINISHED or match.person_id is not None:
        return
    if rows is None:
        rows = list(MatchSeat.objects.filter(match=match).only(*SEAT_COLUMNS))
    seats = [(s.version_id, s.seat, s.won, s.placing, s.points, s.forfeit) for s in rows]
    tallies: dict[tuple[int, int, bool], Counter[str]] = {}
    for version, seat, won, placing, points, forfeit in seats:
        row = tallies.setdefault((version, seat, match.ladder), Counter())
        row.update(
            games=1,
            wins=int(won),
            placed=int(placing is not None),
            placings=placing or 0,
            points=points or 0,
            forfeits=int(forfeit is not None),
        )
    meetings: dict[tuple[int, int], Counter[str]] = {}
    for version, seat, _, placing, _, _ in seats:
        for other, other_seat, _, other_placing, _, _ in seats:
            if other_seat == seat:
                continue
            row = meetings.setdefault((version, other), Counter())
            row["games"] += 1
            if placing is not None and other_placing is not None:
                row["ahead"] += placing < other_placing
                row["behind"] += placing > other_placing
    # keys in one order: two results recorded at once lock their rows in the same order;
    # both statements in one round trip where the database takes them together
    upserts = [
        _adding(SeatTally, ("version_id", "seat", "ladder"), TALLY_FIELDS, tallies),
        _adding(Meeting, ("version_id", "opponent_id"), MEETING_FIELDS, meetings),
    ]
    execute_together([u for u in upserts if u is not None])


def _adding(
    model: type[SeatTally] | type[Meeting],
    key: Sequence[str],
    fields: Sequence[str],
    counts: dict[tuple[int, int, bool], Counter[str]] | dict[tuple[int, int], Counter[str]],
) -> Statement | None:
    """The statement that adds ``counts`` to ``model``'s rows, inserting the missing
    ones (``INSERT … ON CONFLICT DO UPDATE``, PostgreSQL's and SQLite's alike); None if
    there is nothing to add."""
    if not counts:
        return None
    table = model._meta.db_table
    columns = [*key, *fields]
    rows = [(*k, *(counts[k][f] for f in fields)) for k in sorted(counts)]  # type: ignore[index]
    values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(rows))
    update = ", ".join(f"{f} = {table}.{f} + excluded.{f}" for f in fields)
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values} "
        f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {update}"
    )
    return sql, [value for row in rows for value in row]


def recompute_tallies() -> int:
    """Rebuild every tally from the finished matches (the same figures as counting each
    result as it was recorded); returns how many finished matches they hold. Results
    recorded meanwhile wait for it (PostgreSQL: the tables are locked)."""
    seat, match = MatchSeat._meta.db_table, Match._meta.db_table
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                tables = f"{SeatTally._meta.db_table}, {Meeting._meta.db_table}"
                cursor.execute(f"LOCK TABLE {tables} IN EXCLUSIVE MODE")
        SeatTally.objects.all().delete()
        Meeting.objects.all().delete()
        finished = [Match.Status.FINISHED]
        with connection.cursor() as cursor:
            cursor.execute(SEAT_TALLIES_SQL.format(seat=seat, match=match), finished)
            names = ("version_id", "seat", "ladder", *TALLY_FIELDS)
            tallies = [SeatTally(**dict(zip(names, r, strict=True))) for r in cursor.fetchall()]
            cursor.execute(MEETINGS_SQL.format(seat=seat, match=match), finished)
            pair = ("version_id", "opponent_id", *MEETING_FIELDS)
            meetings = [Meeting(**dict(zip(pair, r, strict=True))) for r in cursor.fetchall()]
        SeatTally.objects.bulk_create(tallies, batch_size=2000)
        Meeting.objects.bulk_create(meetings, batch_size=2000)
        return Match.objects.filter(status=Match.Status.FINISHED).count()
