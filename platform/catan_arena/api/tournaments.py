"""Tournaments: anyone reads them, their standings and fixtures; organizers create,
open, schedule, start and cancel; authors enter and withdraw while entries are open."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catan_arena.api.matches import MatchSerializer
from catan_arena.api.pagination import NewestFirst
from catan_arena.api.permissions import IsOrganizerOrReadOnly
from catan_arena.api.schema import Refusals
from catan_arena.core.limits import DECISION_BOUND, TIME_BANK_BOUND, TOURNAMENT_BOUNDS, Bound
from catan_arena.matches.models import Match
from catan_arena.matches.selectors import public_matches
from catan_arena.matches.services import MatchLimits
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.selectors import version_with_bot
from catan_arena.tournaments.models import Entry, Tournament
from catan_arena.tournaments.selectors import (
    entries_of,
    progress,
    standings_table,
    tournament_by_pk,
    with_progress,
)
from catan_arena.tournaments.services import (
    TournamentSpec,
    cancel_tournament,
    create_tournament,
    enter_tournament,
    open_entries,
    schedule_start,
    start_tournament,
    withdraw_entry,
)


class TournamentSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    games_total = serializers.IntegerField(read_only=True)
    games_done = serializers.IntegerField(read_only=True)
    entries = serializers.IntegerField(source="entry_count", read_only=True)

    class Meta:
        model = Tournament
        fields = (
            "id", "name", "format", "status", "table_size", "cycles", "rounds",
            "games_per_table", "rules", "decision_seconds", "time_bank_seconds", "ladder",
            "starts_at", "started_at", "finished_at", "max_entries", "entries_per_author",
            "note", "pair_imbalance", "entries", "games_total", "games_done", "created_at",
        )  # fmt: skip
        read_only_fields = fields


def _bounded(name: str, **kwargs: Any) -> serializers.IntegerField:
    """An integer field within the setting's bounds (out of range: 400)."""
    bound = TOURNAMENT_BOUNDS[name]
    return serializers.IntegerField(min_value=bound.low, max_value=bound.high, **kwargs)


def _seconds(bound: Bound[float], help_text: str) -> serializers.FloatField:
    """A clock's field within its bounds; left out, the server's default."""
    return serializers.FloatField(
        required=False, min_value=bound.low, max_value=bound.high, help_text=help_text
    )


class NewTournamentSerializer(serializers.Serializer):  # type: ignore[type-arg]
    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(Tournament.Format.choices, default="round_robin")
    table_size = serializers.IntegerField(default=4)
    cycles = _bounded("cycles", default=1)
    rounds = _bounded("rounds", required=False, allow_null=True, default=None)
    games_per_table = _bounded("games_per_table", default=1)
    rules = serializers.DictField(default=dict)
    decision_seconds = _seconds(DECISION_BOUND, "CPU seconds per decision")
    time_bank_seconds = _seconds(TIME_BANK_BOUND, "CPU seconds of bank per game")
    ladder = serializers.BooleanField(default=False)
    max_entries = _bounded("max_entries", required=False, allow_null=True, default=None)
    entries_per_author = _bounded("entries_per_author", default=1)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    open_entries = serializers.BooleanField(default=False)


class StandingSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rank = serializers.IntegerField()
    version = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    placing_points = serializers.IntegerField()
    mean_points = serializers.FloatField()
    faults = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    buchholz = serializers.FloatField()
    strength = serializers.FloatField(help_text="Plackett–Luce log-strength (centred on 0).")
    strength_low = serializers.FloatField(help_text="Bootstrap 95% interval.")
    strength_high = serializers.FloatField()
    tier = serializers.IntegerField(help_text="Entries of one tier are statistically tied.")


class EntrySerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    bot = serializers.CharField(source="version.bot.name", read_only=True)
    owner = serializers.CharField(source="version.bot.owner.username", read_only=True)

    class Meta:
        model = Entry
        fields = ("version", "bot", "owner", "entered_at")
        read_only_fields = ("bot", "owner", "entered_at")


class ScheduleSerializer(serializers.Serializer):  # type: ignore[type-arg]
    starts_at = serializers.DateTimeField()


class TournamentFilter(django_filters.FilterSet):
    class Meta:
        model = Tournament
        fields = ("status", "format")


class TournamentListView(generics.ListCreateAPIView):  # type: ignore[type-arg]
    """Tournaments, newest first; organizers POST a new one (a draft, or open)."""

    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter
    permission_classes = (IsOrganizerOrReadOnly,)

    def get_queryset(self) -> QuerySet[Tournament]:
        return with_progress()

    @extend_schema(request=NewTournamentSerializer, responses={201: TournamentSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = NewTournamentSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = dict(incoming.validated_data)
        opened = data.pop("open_entries")
        limits = MatchLimits.asked(
            data.pop("decision_seconds", None), data.pop("time_bank_seconds", None)
        )
        made = create_tournament(
            request.user,  # type: ignore[arg-type]
            TournamentSpec(limits=limits, **data),
            open_entries=opened,
        )
        body = TournamentSerializer(with_progress().get(pk=made.pk)).data
        return Response(body, status=status.HTTP_201_CREATED)


class TournamentDetailView(generics.RetrieveAPIView):  # type: ignore[type-arg]
    serializer_class = TournamentSerializer

    def get_queryset(self) -> QuerySet[Tournament]:
        return with_progress()


def _tournament(pk: int) -> Tournament:
    found = tournament_by_pk(pk)
    if found is None:
        raise exceptions.NotFound("no such tournament")
    return found


class ActionView(APIView):
    """An organizer's action on a tournament (state conflicts answer 409)."""

    permission_classes = (IsAuthenticated, IsOrganizerOrReadOnly)
    refusals: ClassVar[Refusals] = {"POST": (409,)}
    action = ""

    def act(self, request: Request, tournament: Tournament) -> None:
        raise NotImplementedError

    @extend_schema(request=None, responses={200: TournamentSerializer})
    def post(self, request: Request, pk: int) -> Response:
        self.act(request, _tournament(pk))
        return Response(TournamentSerializer(with_progress().get(pk=pk)).data)


class OpenView(ActionView):
    """Open entries (a draft)."""

    def act(self, request: Request, tournament: Tournament) -> None:
        open_entries(request.user, tournament)  # type: ignore[arg-type]


class StartView(ActionView):
    """Close entries and queue the matches now."""

    def act(self, request: Request, tournament: Tournament) -> None:
        start_tournament(tournament)


class CancelView(ActionView):
    """Cancel: queued matches voided, what was played kept."""

    def act(self, request: Request, tournament: Tournament) -> None:
        cancel_tournament(tournament, request.user)  # type: ignore[arg-type]


class ScheduleView(APIView):
    """Set when beat starts it."""

    permission_classes = (IsAuthenticated, IsOrganizerOrReadOnly)
    refusals: ClassVar[Refusals] = {"POST": (409,)}

    @extend_schema(request=ScheduleSerializer, responses={200: TournamentSerializer})
    def post(self, request: Request, pk: int) -> Response:
        incoming = ScheduleSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        starts_at: datetime = incoming.validated_data["starts_at"]
        schedule_start(request.user, _tournament(pk), starts_at)  # type: ignore[arg-type]
        return Response(TournamentSerializer(with_progress().get(pk=pk)).data)


class EntryListView(generics.ListCreateAPIView):  # type: ignore[type-arg]
    """A tournament's entries; POST enters a version of yours while entries are open."""

    serializer_class = EntrySerializer
    pagination_class = None
    refusals: ClassVar[Refusals] = {"POST": (409,)}

    def get_queryset(self) -> QuerySet[Entry]:
        return entries_of(self.kwargs.get("pk", 0))

    @extend_schema(request=EntrySerializer, responses={201: EntrySerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = EntrySerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        version: BotVersion = incoming.validated_data["version"]
        entry = enter_tournament(request.user, _tournament(kwargs["pk"]), version)  # type: ignore[arg-type]
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryDetailView(APIView):
    permission_classes = (IsAuthenticated,)
    refusals: ClassVar[Refusals] = {"DELETE": (409,)}

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int, version: int) -> Response:
        """Withdraw an entry while entries are open (its author or an organizer)."""
        found = version_with_bot(version)
        if found is None:
            raise exceptions.NotFound("no such version")
        withdraw_entry(request.user, _tournament(pk), found)  # type: ignore[arg-type]
        return Response(status=status.HTTP_204_NO_CONTENT)


class StandingsView(APIView):
    """Placing points, wins, mean points, faults; the Plackett–Luce strength with its
    bootstrap 95% interval and tier (Swiss: Buchholz tie-break)."""

    permission_classes = ()

    @extend_schema(responses={200: StandingSerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        tournament = _tournament(pk)
        rows = []
        for rank, (row, fit) in enumerate(standings_table(tournament), 1):
            rows.append(
                {
                    "rank": rank, "version": row.version_id, "name": row.name,
                    "games": row.games, "wins": row.wins,
                    "placing_points": row.placing_points, "mean_points": row.mean_points,
                    "faults": row.faults, "forfeits": row.forfeits, "buchholz": row.buchholz,
                    "strength": fit.strength, "strength_low": fit.low,
                    "strength_high": fit.high, "tier": fit.group,
                }
            )  # fmt: skip
        done = progress(tournament)
        headers = {"X-Games-Done": str(done.done), "X-Games-Total": str(done.total)}
        return Response(StandingSerializer(rows, many=True).data, headers=headers)


class FixturesView(generics.ListAPIView):  # type: ignore[type-arg]
    """A tournament's matches (its fixtures), newest first."""

    serializer_class = MatchSerializer
    pagination_class = NewestFirst
    filterset_class = None

    def get_queryset(self) -> QuerySet[Match]:
        return public_matches().filter(tournament_id=self.kwargs.get("pk", 0))
