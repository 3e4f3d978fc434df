"""Reads on matches."""

from __future__ import annotations

import gzip
from typing import Any

import orjson
from django.db.models import Prefetch, QuerySet

from catan_arena.matches.models import Match, MatchSeat


def replay_of(match: Match) -> dict[str, Any] | None:
    """The finished match's replay as JSON data (None before it finishes)."""
    if not match.replay:
        return None
    data: dict[str, Any] = orjson.loads(gzip.decompress(bytes(match.replay)))
    return data


def with_seats() -> QuerySet[Match]:
    """Matches with their seats, versions, bots and owners in two queries (the replay and
    the seats' logs left unloaded)."""
    seats = MatchSeat.objects.select_related("version__bot__owner").defer("log")
    return Match.objects.defer("replay", "live").prefetch_related(Prefetch("seats", seats))


def status_counts(matches: Any) -> dict[str, int]:
    """How many of ``matches`` (a queryset) are in each status."""
    counts = {str(s): 0 for s in Match.Status}
    for status in matches.values_list("status", flat=True):
        counts[status] += 1
    return counts


def seed_is_public(match: Match) -> bool:
    """A match's seed may be shown once it is done and no match still to play shares it
    (duplicate rotations and A/B pairs replay one seed)."""
    if match.status not in (Match.Status.FINISHED, Match.Status.FAILED, Match.Status.VOID):
        return False
    pending = Match.objects.filter(
        seed=match.seed, status__in=(Match.Status.QUEUED, Match.Status.RUNNING)
    )
    return not pending.exists()


def next_queued_match() -> int | None:
    """The oldest queued match (the embedded default's workers take them in order)."""
    pk: int | None = (
        Match.objects.filter(status=Match.Status.QUEUED)
        .order_by("id")
        .values_list("pk", flat=True)
        .first()
    )
    return pk
