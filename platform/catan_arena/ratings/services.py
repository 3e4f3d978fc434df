"""Writes on ratings: the ladder applies finished ladder matches in creation order.

Ratings are a pure function of the ordered history: a finished ladder match is applied
only once every ladder match created before it is done (finished, failed or void), so the
order in which workers finish changes nothing. :func:`recompute_ratings` rebuilds
everything from scratch through the same function, with identical numbers."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from catan_arena.matches.models import Match, MatchSeat
from catan_arena.ratings.models import Rating, RatingChange
from catan_arena.ratings.systems import (
    EloConfig,
    elo_deltas,
    is_provisional,
    openskill_start,
    openskill_update,
    widened_sigma,
)
from catan_arena.submissions.models import BotVersion

ELO = EloConfig()
LADDER_LOCK = 0x6361_7461_6E00  # "catan\0": the advisory lock that serialises the ladder


def _lock_ladder() -> None:
    """Serialise ladder updates: a PostgreSQL advisory lock for this transaction (SQLite
    transactions are already serialised: they take the write lock at BEGIN)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LADDER_LOCK])


def apply_ready_ratings() -> int:
    """Apply every ladder match that is ready, in creation order; returns how many
    were rated. Inside the transaction that finished a match (embedded default) or in
    one of its own (server mode: :mod:`.tasks` after the result's commit, a few matches
    at a time)."""
    ready, done = [], []
    with transaction.atomic(savepoint=False):
        _lock_ladder()
        pending = Match.objects.filter(ladder=True, rating_done=False).order_by("id")
        for match in list(pending.only("id", "status")):
            if match.status in Match.IN_FLIGHT:
                break
            if match.status == Match.Status.FINISHED:
                ready.append(match)
            done.append(match.pk)
        if ready:
            _rate_in_order(ready)
        if done:
            Match.objects.filter(pk__in=done).update(rating_done=True)
    return len(ready)


def _rate_in_order(matches: list[Match]) -> None:
    """Rate ``matches`` one after the other: their seats read in one query, each
    version's rating read once and written once, every change in one insert."""
    seats_of: dict[int, list[MatchSeat]] = defaultdict(list)
    for seat in MatchSeat.objects.filter(match__in=matches).order_by("match_id", "seat"):
        seats_of[seat.match_id].append(seat)
    ratings = Rating.objects.in_bulk({s.version_id for seats in seats_of.values() for s in seats})
    touched: dict[int, Rating] = {}
    changes: list[RatingChange] = []
    now = timezone.now()
    for match in matches:
        seats = seats_of[match.pk]
        for seat in seats:
            if seat.version_id not in ratings:
                ratings[seat.version_id] = _first_rating(seat.version_id, ratings)
            touched[seat.version_id] = ratings[seat.version_id]
        changes += _rate(match, seats, [ratings[seat.version_id] for seat in seats], now)
    for rating in touched.values():  # one plain UPDATE each: bulk_update's CASE is slower
        rating.save(update_fields=RATING_FIELDS)
    RatingChange.objects.bulk_create(changes)


def _rate(
    match: Match, seats: list[MatchSeat], ratings: list[Rating], now: datetime
) -> list[RatingChange]:
    """One match's rating changes; its seats' ``ratings`` are updated in place."""
    placings = [seat.placing or len(seats) for seat in seats]
    elo = elo_deltas([r.elo for r in ratings], placings, [r.games for r in ratings], config=ELO)
    skill = openskill_update([(r.mu, r.sigma) for r in ratings], placings)
    changes = []
    for seat, rating, delta, (mu, sigma) in zip(seats, ratings, elo, skill, strict=True):
        changes.append(
            RatingChange(
                match=match,
                version_id=seat.version_id,
                placing=placings[seat.seat],
                games_before=rating.games,
                provisional=is_provisional(rating.games, ELO),
                elo_before=rating.elo,
                elo_after=rating.elo + delta,
                mu_before=rating.mu,
                mu_after=mu,
                sigma_before=rating.sigma,
                sigma_after=sigma,
            )
        )
        rating.elo += delta
        rating.mu, rating.sigma = mu, sigma
        rating.games += 1
        rating.wins += int(seat.won)
        rating.updated_at = now
    return changes


RATING_FIELDS = ["elo", "mu", "sigma", "games", "wins", "updated_at"]


def _first_rating(version_id: int, known: dict[int, Rating]) -> Rating:
    """A version's rating, made on its first ladder game: afresh, or (if its author
    asked) from the rating its parent version has at that point of the history (as
    rated so far, ``known`` included), with σ widened and the provisional K back (so it
    can move quickly either way)."""
    elo, (mu, sigma) = ELO.start, openskill_start()
    parent_id = (
        BotVersion.objects.filter(pk=version_id).values_list("inherits_from", flat=True).first()
    )
    parent = None
    if parent_id is not None:
        parent = known.get(parent_id) or Rating.objects.filter(version_id=parent_id).first()
    if parent is not None:
        elo, mu, sigma = parent.elo, parent.mu, widened_sigma(parent.sigma, sigma)
    return Rating.objects.create(version_id=version_id, elo=elo, mu=mu, sigma=sigma)


def recompute_ratings() -> int:
    """Rebuild every rating and its history from the finished ladder matches, in
    creation order; returns the number of matches rated."""
    with transaction.atomic():
        _lock_ladder()
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        Match.objects.filter(ladder=True).update(rating_done=False)
        return apply_ready_ratings()
