"""Writes on tournaments: create a round robin (its matches queued), note progress."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from catan_arena.accounts.models import User
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.models import Entry, Tournament
from catan_arena.tournaments.scheduling import Entry as ScheduleEntry
from catan_arena.tournaments.scheduling import round_robin
from engine import RulesConfig
from engine.rng import new_seed


class TournamentError(ValueError):
    """A tournament cannot be made as asked; the message says why."""


def author_key(version: BotVersion) -> int:
    """Who counts as a version's author for "one version per author at a table": its
    owner, except the system account, whose built-in bots each count as their own."""
    owner = version.bot.owner
    return -version.bot_id if owner.is_system else owner.pk


def create_round_robin(
    name: str,
    versions: Sequence[BotVersion],
    *,
    table_size: int = 4,
    cycles: int = 1,
    ladder: bool = False,
    limits: MatchLimits | None = None,
    created_by: User | None = None,
    duplicate: bool = False,
) -> Tournament:
    """A running round robin among ``versions`` with every match queued: tables of
    ``table_size`` (3 where the count needs it), every pair at least ``cycles`` times,
    each grouping played in every seat rotation (:func:`.scheduling.round_robin`).
    ``duplicate``: the rotations of a grouping share one seed (board, dice, cards), so
    each entry meets the same luck from every seat; every game still starts fresh bot
    processes, so nothing remembered crosses from one rotation to the next."""
    if len({v.pk for v in versions}) != len(versions):
        raise TournamentError("a version can be entered once")
    inactive = [str(v) for v in versions if v.status != BotVersion.Status.ACTIVE]
    if inactive:
        raise TournamentError(f"only active versions can enter: {', '.join(inactive)}")
    if len(versions) < 3:
        raise TournamentError("a round robin needs at least 3 entries")
    limits = limits or MatchLimits.default()
    entries = [ScheduleEntry(id=v.pk, author=author_key(v)) for v in versions]
    try:
        schedule = round_robin(entries, table_size=table_size, cycles=cycles)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    by_id = {v.pk: v for v in versions}
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            format=Tournament.Format.DUPLICATE if duplicate else Tournament.Format.ROUND_ROBIN,
            table_size=table_size,
            cycles=cycles,
            ladder=ladder,
            decision_seconds=limits.decision_seconds,
            time_bank_seconds=limits.time_bank_seconds,
            pair_imbalance=schedule.pair_imbalance,
            created_by=created_by,
        )
        Entry.objects.bulk_create(Entry(tournament=tournament, version=v) for v in versions)
        seeds: dict[int, str] = {}
        for table in schedule.tables:
            seed = seeds.setdefault(table.grouping, new_seed()) if duplicate else None
            create_match(
                [by_id[e] for e in table.seats],
                rules=RulesConfig(players=len(table.seats)),
                limits=limits,
                ladder=ladder,
                tournament_id=tournament.pk,
                round=table.round,
                seed=seed,
            )
    return tournament


def note_match_done(tournament_id: int) -> None:
    """Called when one of its matches is done: the tournament finishes with its last."""
    open_matches = Match.objects.filter(
        tournament_id=tournament_id, status__in=(Match.Status.QUEUED, Match.Status.RUNNING)
    )
    if not open_matches.exists():
        Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING).update(
            status=Tournament.Status.FINISHED, finished_at=timezone.now()
        )


def cancel_tournament(tournament: Tournament) -> int:
    """Stop a tournament: its queued matches are voided, what was played is kept.
    Returns how many matches were voided."""
    with transaction.atomic():
        voided = Match.objects.filter(tournament=tournament, status=Match.Status.QUEUED).update(
            status=Match.Status.VOID, finished_at=timezone.now()
        )
        Tournament.objects.filter(pk=tournament.pk).update(
            status=Tournament.Status.CANCELLED, finished_at=timezone.now()
        )
    return voided
