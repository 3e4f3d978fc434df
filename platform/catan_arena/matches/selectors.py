"""Reads on matches."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db.models import F, Prefetch, QuerySet
from django.http import Http404

from arena_runner.disclosure import public_fault, public_forfeit
from catan_arena.core.errors import NotFound
from catan_arena.matches import replay_blob
from catan_arena.matches.models import Match, MatchSeat, PersonSeat
from catan_arena.submissions.selectors import is_author


def replay_of(match: Match) -> dict[str, Any] | None:
    """The finished match's replay as JSON data (None before it finishes)."""
    if not match.replay:
        return None
    return replay_blob.unpack(bytes(match.replay))


def finished_replay(match_id: int) -> dict[str, Any] | None:
    """A finished match's replay as JSON data, for the server's own use (warming the
    viewer's cache): no reader's rights asked, never sent to a client as is."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).only("replay")
    found = match.first()
    return None if found is None else replay_of(found)


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


def seed_group_open(match: Match) -> bool:
    """Whether the games sharing ``match``'s seed (duplicate rotations, A/B pairs: one
    board, one dice, one deck) may be watched: no *other* match with its seed is queued
    or running. While one is, every game of the group shows no replay, no step, no dice
    and no position to anyone but staff (:func:`may_watch`): they would tell the games
    still to play their chance."""
    pending = Match.objects.filter(seed=match.seed, status__in=Match.IN_FLIGHT).exclude(pk=match.pk)
    return not pending.exists()


def may_watch(match: Match, user: Any, *, group_open: bool | None = None) -> bool:
    """Whether ``user`` may see ``match``'s play (replay, steps, dice, positions, the
    live view): staff always, anyone once its seed group is open (``group_open``: the
    caller's :func:`seed_group_open` of ``match``, else asked here)."""
    if getattr(user, "is_staff", False):
        return True
    return seed_group_open(match) if group_open is None else group_open


def seed_is_public(match: Match, *, group_open: bool | None = None) -> bool:
    """A match's seed may be shown once it is done and its seed group is open
    (``group_open``: as :func:`may_watch`)."""
    if match.status not in Match.DONE:
        return False
    return seed_group_open(match) if group_open is None else group_open


WITHHELD = "withheld while a game sharing its seed is queued or running"


class ReplayUnavailable(NotFound, Http404):
    """No replay to show: none (yet), or withheld from this reader. A 404 for the API
    (an :class:`~catan_arena.core.errors.AppError`) and for the pages (an ``Http404``)."""


@dataclass(frozen=True)
class WatchableReplay:
    """A replay its reader may watch (:func:`watchable_replay`)."""

    match: Match
    seed_public: bool

    @cached_property
    def data(self) -> dict[str, Any]:
        """The whole replay, seed included: for drawing on the server, never sent as is
        (unpacked on first use: a viewer holding it parsed already skips it)."""
        data = replay_of(self.match)
        assert data is not None  # watchable_replay checked there is one
        return data

    def public(self) -> dict[str, Any]:
        """What a client may receive: faults in plain words (:func:`public_replay`),
        the seed None until :func:`seed_is_public`."""
        shown = public_replay(self.data)
        return shown if self.seed_public else shown | {"seed": None}


def watchable_replay(match_id: int, user: Any) -> WatchableReplay:
    """The one gate of every replay — the API's, the viewer's, the position download's:
    the match's replay if ``user`` may watch it (:func:`may_watch`), else
    :class:`ReplayUnavailable` saying why."""
    fields = ("status", "replay", "replay_sha256", "rules", "seed")
    match = Match.objects.filter(pk=match_id).only(*fields).first()
    if match is None:
        raise ReplayUnavailable("no such match")
    if not match.replay:
        raise ReplayUnavailable(f"match {match_id} has no replay ({match.status})")
    group_open = seed_group_open(match)  # asked once: it rules both answers
    if not may_watch(match, user, group_open=group_open):
        raise ReplayUnavailable(f"match {match_id}'s replay is {WITHHELD}")
    return WatchableReplay(match, seed_is_public(match, group_open=group_open))


def seat_faults(seat: MatchSeat, user: Any) -> list[dict[str, Any]]:
    """``seat``'s faults as ``user`` may read them: the bot's author (and staff,
    :func:`~catan_arena.submissions.selectors.is_author`) the stored faults with their
    messages; anyone else the kind, clock and plain reason."""
    if is_author(user, seat.version.bot.owner_id):
        return [public_fault(f) | f for f in seat.faults]
    return [public_fault(f) for f in seat.faults]


def seat_forfeit(seat: MatchSeat, user: Any) -> dict[str, Any] | None:
    """``seat``'s forfeit as ``user`` may read it (its stored reason may quote the bot)."""
    if seat.forfeit is None:
        return None
    if is_author(user, seat.version.bot.owner_id):
        return dict(seat.forfeit)
    return public_forfeit(seat.forfeit, seat.faults)


def attempt_log(match: Match, user: Any) -> list[dict[str, Any]]:
    """The match's attempts: staff the whole log (the worker's host and pid, a void's
    reason); anyone else each attempt's times and outcome in one word."""
    if getattr(user, "is_staff", False):
        return list(match.attempt_log)
    keep = ("attempt", "started", "ended")
    return [
        {k: e.get(k) for k in keep} | {"outcome": str(e.get("outcome", "")).split(":")[0]}
        for e in match.attempt_log
    ]


def public_replay(data: dict[str, Any]) -> dict[str, Any]:
    """A replay (JSON data) as anyone may read it: its faults and forfeits in plain
    words (their stored messages may quote the bots), a void's reason withheld. The
    steps and the seed are untouched (the seed: :func:`seed_is_public`)."""
    meta = data.get("meta")
    if not isinstance(meta, dict) or not {"faults", "forfeits", "voided"} & set(meta):
        return data
    faults = [f for f in meta.get("faults", []) if isinstance(f, dict)]
    shown = {k: v for k, v in meta.items() if k not in ("faults", "forfeits", "voided")}
    if "faults" in meta:
        shown["faults"] = [public_fault(f) for f in faults]
    if "forfeits" in meta:
        shown["forfeits"] = [
            public_forfeit(f, [g for g in faults if g.get("seat") == f.get("seat")])
            for f in meta["forfeits"]
            if isinstance(f, dict)
        ]
    if "voided" in meta:
        shown["voided"] = "platform fault"
    return data | {"meta": shown}


def next_queued_match() -> int | None:
    """The next queued match for the embedded default's workers: the lowest
    :class:`.Match.Priority` first (a person's game, then those someone waits for, then
    the ladder's routine), then the oldest."""
    pk: int | None = (
        Match.objects.filter(status=Match.Status.QUEUED)
        .order_by("priority", "id")
        .values_list("pk", flat=True)
        .first()
    )
    return pk


def seats_of(match: Match) -> list[MatchSeat]:
    """A match's seats with their versions, bots and owners."""
    return list(MatchSeat.objects.filter(match=match).select_related("version__bot__owner"))


def seat_with_log(match_id: int, seat: int) -> MatchSeat | None:
    """One seat with what its bot printed, and whose bot it is (for the log's reader)."""
    return (
        MatchSeat.objects.filter(match_id=match_id, seat=seat)
        .select_related("version__bot")
        .only("log", "seat", "match_id", "version_id", "version__number", "version__bot__name",
              "version__bot__owner_id")
        .first()
    )  # fmt: skip


def public_matches() -> QuerySet[Match]:
    """Matches with their seats (:func:`with_seats`), the seed left unloaded."""
    return with_seats().defer("seed")


def recent_matches_of(bot_id: int, matches: QuerySet[Match], limit: int = 20) -> list[Match]:
    """The newest ``limit`` of ``matches`` a bot played in (two queries: its seats newest
    first, read backwards along the seats' index, then those matches)."""
    seats = MatchSeat.objects.filter(version__bot_id=bot_id).order_by("-match_id")
    ids = list(dict.fromkeys(seats.values_list("match_id", flat=True)[: 4 * limit]))[:limit]
    return list(matches.filter(pk__in=ids).order_by("-id"))


def person_in(match: Match) -> tuple[int, str] | None:
    """A person's game: (the person's seat, their name); None for a game of bots."""
    if match.person_id is None:
        return None
    found = PersonSeat.objects.filter(match_id=match.pk).select_related("match__person").first()
    if found is None or found.match.person is None:
        return None
    return found.seat, found.match.person.username


@dataclass(frozen=True)
class PeopleRecord:
    """A bot's results against people (games with a person, never rated): the games
    one of its versions sat in (not as the person's stand-in), those the person's seat
    won (the autopilot's moves included, for a person who let the clock run out or
    left) and those a seat of this bot won."""

    games: int
    people_won: int
    bot_won: int


def people_record(bot_id: int) -> PeopleRecord:
    """:class:`PeopleRecord` of the bot ``bot_id`` over the finished games with a
    person (three queries, whatever the history)."""
    person_seat = F("match__person_seat__seat")
    seats = MatchSeat.objects.filter(
        match__status=Match.Status.FINISHED,
        match__person__isnull=False,
        version__bot_id=bot_id,
    ).exclude(seat=person_seat)
    games = seats.values("match_id").distinct()
    people = MatchSeat.objects.filter(match_id__in=games, seat=person_seat, won=True)
    return PeopleRecord(
        games=games.count(),
        people_won=people.count(),
        bot_won=seats.filter(won=True).values("match_id").distinct().count(),
    )
