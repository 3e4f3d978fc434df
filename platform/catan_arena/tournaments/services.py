"""Writes on tournaments: organizers create, open, schedule, start and cancel them;
authors enter and withdraw while entries are open; matches report progress.

Lifecycle: ``draft → open → running → finished``, or ``cancelled`` from any state before
finished (what was played is kept). A tournament starts when its organizer starts it or,
once ``starts_at`` has passed, on beat's next :func:`start_due_tournaments`. Round robins
(plain and duplicate) queue every match at the start; a Swiss tournament queues one round
at a time, the next when the last match of a round is done."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import may_organize
from catan_arena.core.errors import Conflict, Forbidden, Invalid
from catan_arena.core.limits import TOURNAMENT_BOUNDS, table_size_problem, tournament_problem
from catan_arena.ladder.selectors import why_not_playable
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.ratings.services import apply_ready_ratings
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.selectors import author_key
from catan_arena.tournaments import swiss
from catan_arena.tournaments.models import Entry, Tournament
from catan_arena.tournaments.scheduling import Entry as ScheduleEntry
from catan_arena.tournaments.scheduling import round_robin
from catan_arena.tournaments.selectors import swiss_history, swiss_standings
from engine import ConfigError, RulesConfig
from engine.rng import new_seed

Status = Tournament.Status
Format = Tournament.Format


class TournamentError(Conflict):
    """A tournament cannot be made, entered or started as asked; the message says why
    (entries closed, already entered: the tournament's state refuses it)."""


class SpecError(Invalid, TournamentError):
    """What an organizer set up is not valid (its ``settings``)."""

    field = "settings"


def require_organizer(user: User) -> None:
    """``Forbidden`` unless ``user`` may organize tournaments (granted in the admin:
    the permission "Can organize tournaments", or the Organizers group)."""
    if not may_organize(user):
        raise Forbidden(f"{user} is not an organizer")


@dataclass(frozen=True)
class TournamentSpec:
    """What an organizer sets up."""

    name: str
    format: str = Format.ROUND_ROBIN
    table_size: int = 4
    cycles: int = 1
    """Round robins: every pair of entries shares at least this many tables."""
    rounds: int | None = None
    """Swiss: rounds to play (None: :func:`.swiss.rounds_needed` for the field)."""
    games_per_table: int = 1
    """Swiss: games each table plays, seats rotated (round robins: every rotation)."""
    rules: dict[str, Any] = field(default_factory=dict)
    """Rules options (``engine.RulesConfig`` fields; players follow each table)."""
    limits: MatchLimits | None = None
    ladder: bool = False
    max_entries: int | None = None
    entries_per_author: int = 1
    starts_at: datetime | None = None


def check_spec(spec: TournamentSpec) -> None:
    """``TournamentError`` naming the first thing wrong with ``spec`` (its numbers and
    clock checked against :mod:`catan_arena.core.limits`)."""
    if not spec.name.strip():
        raise SpecError("a tournament needs a name")
    if spec.format not in Format.values:
        raise SpecError(f"unknown format {spec.format!r}: one of {', '.join(Format.values)}")
    problem = table_size_problem(spec.table_size) or tournament_problem(
        {name: getattr(spec, name) for name in TOURNAMENT_BOUNDS}
    )
    if problem is None and spec.limits is not None:
        problem = spec.limits.problem()
    if problem is not None:
        raise SpecError(problem)
    if not 1 <= spec.games_per_table <= spec.table_size:
        raise SpecError(f"games per table: 1 to {spec.table_size} (one per seat rotation)")
    if "players" in spec.rules:
        raise SpecError("players follow each table's size, not the rules options")
    try:
        RulesConfig.from_dict({**spec.rules, "players": spec.table_size})
    except ConfigError as exc:
        raise SpecError(f"rules options: {exc}") from None


def create_tournament(
    organizer: User, spec: TournamentSpec, *, open_entries: bool = False
) -> Tournament:
    """A tournament in ``draft`` (or ``open`` for entries), nothing played yet."""
    require_organizer(organizer)
    check_spec(spec)
    return _tournament(spec, Status.OPEN if open_entries else Status.DRAFT, organizer)


def _tournament(spec: TournamentSpec, status: str, created_by: User | None) -> Tournament:
    """The row for a checked ``spec``."""
    limits = spec.limits or MatchLimits.default()
    return Tournament.objects.create(
        name=spec.name.strip(),
        format=spec.format,
        status=status,
        table_size=spec.table_size,
        cycles=spec.cycles,
        rounds=spec.rounds,
        games_per_table=spec.games_per_table,
        ladder=spec.ladder,
        rules=spec.rules,
        decision_seconds=limits.decision_seconds,
        time_bank_seconds=limits.time_bank_seconds,
        max_entries=spec.max_entries,
        entries_per_author=spec.entries_per_author,
        starts_at=spec.starts_at,
        created_by=created_by,
    )


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def open_entries(organizer: User, tournament: Tournament) -> Tournament:
    """``draft → open``: authors may enter."""
    require_organizer(organizer)
    with transaction.atomic():
        locked = _locked(tournament)
        if locked.status != Status.DRAFT:
            raise TournamentError(f"entries can be opened on a draft, not a {locked.status} one")
        locked.status = Status.OPEN
        locked.save(update_fields=["status"])
    return locked


def schedule_start(organizer: User, tournament: Tournament, starts_at: datetime) -> Tournament:
    """Set when beat starts it (entries close then)."""
    require_organizer(organizer)
    with transaction.atomic():
        locked = _locked(tournament)
        if locked.status not in Tournament.NOT_STARTED:
            raise TournamentError(f"a {locked.status} tournament cannot be rescheduled")
        locked.starts_at = starts_at
        locked.save(update_fields=["starts_at"])
    return locked


def enter_tournament(user: User, tournament: Tournament, version: BotVersion) -> Entry:
    """Enter ``version`` while entries are open: its author (or an organizer, who may
    also enter the built-in bots), an active version, within the entry rules."""
    owner = version.bot.owner
    if owner.pk != user.pk and not may_organize(user):
        raise Forbidden("only its author can enter a bot")
    refusal = why_not_playable(version)
    if refusal is not None:
        raise TournamentError(refusal)
    with transaction.atomic():
        locked = _locked(tournament)
        if not locked.takes_entries:
            raise TournamentError(f"entries are not open ({locked.status})")
        entries = list(locked.entries.select_related("version__bot__owner"))
        if any(e.version_id == version.pk for e in entries):
            raise TournamentError(f"{version} is already entered")
        if locked.max_entries is not None and len(entries) >= locked.max_entries:
            raise TournamentError(f"the tournament is full ({locked.max_entries} entries)")
        key = author_key(version)
        if sum(author_key(e.version) == key for e in entries) >= locked.entries_per_author:
            raise TournamentError(
                f"an author may enter {locked.entries_per_author} version(s) of their bots"
            )
        return Entry.objects.create(tournament=locked, version=version, entered_by=user)


def withdraw_entry(user: User, tournament: Tournament, version: BotVersion) -> None:
    """Take an entry back while entries are open (its author or an organizer)."""
    if version.bot.owner_id != user.pk and not may_organize(user):
        raise Forbidden("only its author can withdraw an entry")
    with transaction.atomic():
        locked = _locked(tournament)
        if locked.status not in Tournament.NOT_STARTED:
            raise TournamentError(f"entries are closed ({locked.status})")
        deleted, _ = Entry.objects.filter(tournament=locked, version=version).delete()
        if not deleted:
            raise TournamentError(f"{version} is not entered")


def start_tournament(tournament: Tournament) -> Tournament:
    """Close entries and queue the matches (a Swiss tournament: its first round). A
    field that cannot be scheduled cancels it, with the reason in ``note``."""
    with transaction.atomic():
        locked = _locked(tournament)
        if locked.status not in Tournament.NOT_STARTED:
            raise TournamentError(f"a {locked.status} tournament cannot start")
        versions = [e.version for e in locked.entries.select_related("version__bot__owner")]
        try:
            with transaction.atomic():  # a savepoint: nothing half-queued survives an error
                _begin(locked, versions)
        except TournamentError as exc:
            locked.status = Status.CANCELLED
            locked.note = f"did not start: {exc}"
            locked.finished_at = timezone.now()
        locked.started_at = timezone.now()
        locked.save()
    return locked


def _begin(tournament: Tournament, versions: Sequence[BotVersion]) -> None:
    """Queue a tournament's first matches and mark it running (``TournamentError`` if
    its field cannot be scheduled)."""
    _check_field(versions)
    if tournament.format == Format.SWISS:
        if tournament.rounds is None:
            tournament.rounds = swiss.rounds_needed(len(versions), tournament.table_size)
        _queue_swiss_round(tournament, 1)
    else:
        _queue_round_robin(tournament, versions)
    tournament.status = Status.RUNNING
    tournament.started_at = timezone.now()


def run_now(
    spec: TournamentSpec, versions: Sequence[BotVersion], *, created_by: User | None = None
) -> Tournament:
    """The operator's path (the main job, the command line): a tournament among
    ``versions``, started at once, no entry period; ``TournamentError`` (nothing kept)
    if it cannot be made."""
    check_spec(spec)
    _check_field(versions)
    with transaction.atomic():
        tournament = _tournament(spec, Status.OPEN, created_by)
        Entry.objects.bulk_create(Entry(tournament=tournament, version=v) for v in versions)
        _begin(tournament, versions)
        tournament.save()
    return tournament


def start_due_tournaments(now: datetime | None = None) -> list[int]:
    """Start every open tournament whose ``starts_at`` has passed (beat calls this);
    returns their ids. Also queues any Swiss round whose predecessor is done but was
    not followed (a backstop: :func:`note_match_done` normally does it)."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=Status.OPEN, starts_at__lte=now)
    started = []
    for tournament in due.order_by("starts_at", "id"):
        try:
            start_tournament(tournament)
        except TournamentError:
            continue  # started or cancelled meanwhile
        started.append(tournament.pk)
    for pk in Tournament.objects.filter(status=Status.RUNNING, format=Format.SWISS).values_list(
        "pk", flat=True
    ):
        note_match_done(pk)
    return started


def _check_field(versions: Sequence[BotVersion]) -> None:
    if len({v.pk for v in versions}) != len(versions):
        raise TournamentError("a version can be entered once")
    inactive = [str(v) for v in versions if v.status != BotVersion.Status.ACTIVE]
    if inactive:
        raise TournamentError(f"only active versions can enter: {', '.join(inactive)}")
    if len(versions) < 3:
        raise TournamentError(f"at least 3 entries are needed, {len(versions)} entered")


def _limits(tournament: Tournament) -> MatchLimits:
    return MatchLimits(tournament.decision_seconds, tournament.time_bank_seconds)


def _rules(tournament: Tournament, players: int) -> RulesConfig:
    return RulesConfig.from_dict({**tournament.rules, "players": players})


def _queue_round_robin(tournament: Tournament, versions: Sequence[BotVersion]) -> None:
    """Every match of a (plain or duplicate) round robin, queued."""
    entries = [ScheduleEntry(id=v.pk, author=author_key(v)) for v in versions]
    try:
        schedule = round_robin(entries, table_size=tournament.table_size, cycles=tournament.cycles)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    tournament.pair_imbalance = schedule.pair_imbalance
    by_id = {v.pk: v for v in versions}
    seeds: dict[int, str] = {}
    duplicate = tournament.format == Format.DUPLICATE
    for table in schedule.tables:
        seed = seeds.setdefault(table.grouping, new_seed()) if duplicate else None
        create_match(
            [by_id[e] for e in table.seats],
            rules=_rules(tournament, len(table.seats)),
            limits=_limits(tournament),
            ladder=tournament.ladder,
            tournament_id=tournament.pk,
            round=table.round,
            seed=seed,
        )


def _queue_swiss_round(tournament: Tournament, number: int) -> None:
    """Round ``number`` of a Swiss tournament, paired by the standings so far."""
    entries = list(tournament.entries.select_related("version__bot__owner"))
    by_id = {e.version_id: e.version for e in entries}
    try:
        tables = swiss.swiss_round(
            [ScheduleEntry(id=e.version_id, author=author_key(e.version)) for e in entries],
            swiss_standings(tournament),
            swiss_history(tournament),
            table_size=tournament.table_size,
            seed=tournament.pk * 1000 + number,
        )
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    for table in tables:
        for shift in range(tournament.games_per_table):
            seats = table.seats[shift:] + table.seats[:shift]
            create_match(
                [by_id[e] for e in seats],
                rules=_rules(tournament, len(seats)),
                limits=_limits(tournament),
                ladder=tournament.ladder,
                tournament_id=tournament.pk,
                round=number,
            )


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
    """A running round robin among ``versions`` with every match queued at once
    (:func:`run_now`): tables of ``table_size`` (3 where the count needs it), every pair
    at least ``cycles`` times, each grouping played in every seat rotation
    (:func:`.scheduling.round_robin`). ``duplicate``: the rotations of a grouping share
    one seed (board, dice, cards), so each entry meets the same luck from every seat;
    every game still starts fresh bot processes, so nothing remembered crosses from one
    rotation to the next."""
    spec = TournamentSpec(
        name,
        format=Format.DUPLICATE if duplicate else Format.ROUND_ROBIN,
        table_size=table_size,
        cycles=cycles,
        ladder=ladder,
        limits=limits,
    )
    return run_now(spec, versions, created_by=created_by)


def note_match_done(tournament_id: int) -> None:
    """Called when one of its matches is done (inside that transaction): a Swiss
    tournament queues its next round after the last match of a round; a tournament
    finishes with its last match. The tournament's row is locked first, so two matches
    finishing at once cannot both miss each other."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Status.RUNNING:
            return
        matches = Match.objects.filter(tournament_id=tournament_id)
        if matches.filter(status__in=Match.IN_FLIGHT).exists():
            return
        if tournament.format == Format.SWISS:
            played = max((r or 0 for r in matches.values_list("round", flat=True)), default=0)
            if played < (tournament.rounds or 0):
                try:
                    _queue_swiss_round(tournament, played + 1)
                except TournamentError as exc:
                    tournament.note = f"stopped after round {played}: {exc}"
                else:
                    return
        tournament.status = Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at", "note"])


def cancel_tournament(tournament: Tournament, organizer: User | None = None) -> int:
    """Stop a tournament that has not finished: its queued matches are voided, what was
    played (and what is being played) is kept. ``organizer``: checked when given (the
    admin and the pages give it; the command line runs as the machine's operator).
    Returns how many matches were voided."""
    if organizer is not None:
        require_organizer(organizer)
    with transaction.atomic():
        locked = _locked(tournament)
        if locked.status in (Status.FINISHED, Status.CANCELLED):
            raise TournamentError(f"a {locked.status} tournament cannot be cancelled")
        voided = Match.objects.filter(tournament=locked, status=Match.Status.QUEUED).update(
            status=Match.Status.VOID, finished_at=timezone.now()
        )
        locked.status = Status.CANCELLED
        locked.finished_at = timezone.now()
        if organizer is not None:
            locked.note = f"cancelled by {organizer}"
        locked.save(update_fields=["status", "finished_at", "note"])
        if locked.ladder and voided:
            apply_ready_ratings()  # later ladder matches may have waited for the voided
    return voided
