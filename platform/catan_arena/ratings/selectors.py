"""Reads on ratings."""

from __future__ import annotations

from django.db.models import QuerySet

from catan_arena.matches.models import Match
from catan_arena.ratings.models import Rating, RatingChange
from catan_arena.ratings.systems import EloConfig, is_provisional


def awaiting_rating() -> QuerySet[Match]:
    """Finished ladder matches whose rating is not applied yet (in server mode it is
    applied on the quick queue after the result's commit)."""
    return Match.objects.filter(ladder=True, rating_done=False, status=Match.Status.FINISHED)


def ladder() -> QuerySet[Rating]:
    """Every rated version, best Elo first."""
    return Rating.objects.select_related("version__bot__owner").order_by("-elo", "version_id")


def provisional(rating: Rating) -> bool:
    return is_provisional(rating.games, EloConfig())


def history(version_id: int) -> QuerySet[RatingChange]:
    """A version's rating changes, oldest first."""
    return RatingChange.objects.filter(version_id=version_id).order_by("match_id")


def elo_history(version_id: int) -> list[float]:
    """A version's Elo after each of its rated games, oldest first (one column read)."""
    return list(history(version_id).values_list("elo_after", flat=True))


def snapshot() -> dict[int, tuple[float, float, float, int, int]]:
    """Every version's ``(elo, mu, sigma, games, wins)`` (for comparisons)."""
    return {r.version_id: (r.elo, r.mu, r.sigma, r.games, r.wins) for r in Rating.objects.all()}
