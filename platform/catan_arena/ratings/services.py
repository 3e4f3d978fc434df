"""Writes on ratings: the ladder applies finished ladder matches in creation order.

Ratings are a pure function of the ordered history: a finished ladder match is applied
only once every ladder match created before it is done (finished, failed or void), so the
order in which workers finish changes nothing. :func:`recompute_ratings` rebuilds
everything from scratch through the same function, with identical numbers."""

from __future__ import annotations

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
    one of its own (server mode: :mod:`.tasks` after the result's commit)."""
    rated, done = 0, []
    with transaction.atomic(savepoint=False):
        _lock_ladder()
        pending = Match.objects.filter(ladder=True, rating_done=False).order_by("id")
        for match in list(pending.only("id", "status")):
            if match.status in Match.IN_FLIGHT:
                break
            if match.status == Match.Status.FINISHED:
                _rate(match)
                rated += 1
            done.append(match.pk)
        if done:
            Match.objects.filter(pk__in=done).update(rating_done=True)
    return rated


def _rate(match: Match) -> None:
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    ratings = _ratings_of([seat.version_id for seat in seats])
    placings = [seat.placing or len(seats) for seat in seats]
    elo = elo_deltas([r.elo for r in ratings], placings, [r.games for r in ratings], config=ELO)
    skill = openskill_update([(r.mu, r.sigma) for r in ratings], placings)
    changes, now = [], timezone.now()
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
    for rating in ratings:  # one plain UPDATE each: bulk_update's CASE took ~25 ms to build
        rating.save(update_fields=RATING_FIELDS)
    RatingChange.objects.bulk_create(changes)


RATING_FIELDS = ["elo", "mu", "sigma", "games", "wins", "updated_at"]


def _ratings_of(version_ids: list[int]) -> list[Rating]:
    """The seats' ratings in seat order: one query for those that exist, the others
    made by :func:`_first_rating`."""
    found = Rating.objects.in_bulk(version_ids)
    return [found.get(vid) or _first_rating(vid) for vid in version_ids]


def _first_rating(version_id: int) -> Rating:
    """A version's rating, made on its first ladder game: afresh, or (if its author
    asked) from the rating its parent version has at that point of the history, with
    σ widened and the provisional K back (so it can move quickly either way)."""
    elo, (mu, sigma) = ELO.start, openskill_start()
    parent_id = (
        BotVersion.objects.filter(pk=version_id).values_list("inherits_from", flat=True).first()
    )
    parent = Rating.objects.filter(version_id=parent_id).first() if parent_id else None
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
