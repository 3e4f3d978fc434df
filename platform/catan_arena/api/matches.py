"""Matches: lists with filters and a cursor, one match, its replay (ETag, gzip), and a
seat's log for that bot's author only."""

from __future__ import annotations

from typing import Any, ClassVar

import django_filters
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catan_arena.abtests.selectors import visible_ab_test_ids, visible_ab_tests
from catan_arena.api.pagination import NewestFirst
from catan_arena.api.schema import Refusals
from catan_arena.core.params import IdFilterField
from catan_arena.matches import replay_blob
from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.selectors import (
    attempt_log,
    public_matches,
    seat_faults,
    seat_forfeit,
    seat_with_log,
    seed_is_public,
    watchable_replay,
    with_seats,
)
from catan_arena.submissions.selectors import is_author


class SeatSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    bot = serializers.CharField(source="version.bot.name", read_only=True)
    version_number = serializers.IntegerField(source="version.number", read_only=True)
    owner = serializers.CharField(source="version.bot.owner.username", read_only=True)
    forfeit = serializers.SerializerMethodField(
        help_text="Its author sees the stored reason; anyone else a plain one."
    )

    class Meta:
        model = MatchSeat
        fields = (
            "seat", "version", "bot", "version_number", "owner", "points", "placing", "won",
            "forfeit", "fault_count", "decisions", "mean_decision_ms", "max_decision_ms",
            "cpu_seconds", "bank_left_seconds",
        )  # fmt: skip
        read_only_fields = fields

    def get_forfeit(self, seat: MatchSeat) -> dict[str, Any] | None:
        return seat_forfeit(seat, _user(self))


def _user(serializer: serializers.Serializer) -> Any:  # type: ignore[type-arg]
    """The user the serializer answers (anonymous without a request)."""
    return _request_user(serializer.context.get("request"))


def _request_user(request: Any) -> Any:
    """The request's user (anonymous without a request: the schema's generation)."""
    return getattr(request, "user", AnonymousUser())


class MatchSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    seats = SeatSerializer(many=True, read_only=True)
    ab_test = serializers.SerializerMethodField(
        help_text="The A/B test the match is a game of, for whoever may see that test "
        "(its requester, its versions' authors, staff); null for anyone else."
    )

    class Meta:
        model = Match
        fields = (
            "id", "status", "created_at", "started_at", "finished_at", "duration_seconds",
            "ladder", "tournament", "round", "ab_test", "rules", "decision_seconds",
            "time_bank_seconds", "attempts", "turns", "termination", "winner_seat", "seats",
        )  # fmt: skip
        read_only_fields = fields

    def get_ab_test(self, match: Match) -> int | None:
        if match.ab_test_id is None:
            return None
        if "visible_ab_tests" not in self.context:  # once per answer, not per match
            self.context["visible_ab_tests"] = visible_ab_test_ids(_user(self))
        return match.ab_test_id if match.ab_test_id in self.context["visible_ab_tests"] else None


class MatchDetailSerializer(MatchSerializer):
    seed = serializers.SerializerMethodField(
        help_text="Published once the match and every match sharing its seed are done."
    )
    faults = serializers.SerializerMethodField(
        help_text="Per seat: kind, clock and a plain reason; the bot's author also sees "
        "the messages."
    )
    attempt_log = serializers.SerializerMethodField(
        help_text="Each attempt's times and outcome (staff: the worker and the reason)."
    )

    class Meta(MatchSerializer.Meta):
        fields: tuple[str, ...] = (  # type: ignore[assignment]
            *MatchSerializer.Meta.fields,
            "seed",
            "faults",
            "attempt_log",
            "sandbox_tier",
        )
        read_only_fields = fields  # type: ignore[assignment]

    def get_seed(self, match: Match) -> str | None:
        return match.seed if seed_is_public(match) else None

    def get_faults(self, match: Match) -> dict[str, list[Any]]:
        user = _user(self)
        return {str(seat.seat): seat_faults(seat, user) for seat in match.seats.all()}

    def get_attempt_log(self, match: Match) -> list[dict[str, Any]]:
        return attempt_log(match, _user(self))


class IdFilter(django_filters.NumberFilter):
    """A version's id, 1 to the largest key (else 400)."""

    field_class = IdFilterField


class MatchFilter(django_filters.FilterSet):
    bot = django_filters.CharFilter(field_name="seats__version__bot__name", distinct=True)
    version = IdFilter(field_name="seats__version", distinct=True)
    owner = django_filters.CharFilter(
        field_name="seats__version__bot__owner__username", distinct=True
    )
    ab_test = django_filters.ModelChoiceFilter(
        queryset=lambda request: visible_ab_tests(_request_user(request))
    )  # another's test is not a choice, as if it did not exist
    created_after = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")

    class Meta:
        model = Match
        fields = ("bot", "version", "owner", "tournament", "status", "ladder", "ab_test")


class MatchListView(generics.ListAPIView):  # type: ignore[type-arg]
    """Matches, newest first (cursor pages; filter by bot, version, owner, tournament,
    status, ladder, A/B test, creation date)."""

    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    pagination_class = NewestFirst

    def get_queryset(self) -> QuerySet[Match]:
        return public_matches()


class MatchDetailView(generics.RetrieveAPIView):  # type: ignore[type-arg]
    serializer_class = MatchDetailSerializer

    def get_queryset(self) -> QuerySet[Match]:
        return with_seats()


class ReplayView(APIView):
    """The finished match's replay (docs/replay-format.md): gzip when the client takes
    it, a strong ETag (``If-None-Match`` answers 304). Faults in plain words; withheld
    (404) while a game sharing its seed is queued or running, except to staff."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description="The ETag of the copy you have: 304 if it is still this one.",
            )
        ],
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            304: OpenApiResponse(description="Not modified: your copy (its ETag) is current."),
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        watched = watchable_replay(pk, request.user)
        match, data, shown = watched.match, watched.data, watched.public()
        stored, sha = bytes(match.replay or b""), match.replay_sha256  # there is one
        if shown != data:
            stored, sha = replay_blob.pack(shown)
        gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
        etag = f'"{sha}-gz"' if gzipped else f'"{sha}"'
        cache = "public, max-age=60" if watched.seed_public else "private, no-store"
        headers = {"ETag": etag, "Vary": "Accept-Encoding", "Cache-Control": cache}
        if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
            return HttpResponse(status=304, headers=headers)
        if gzipped:
            headers["Content-Encoding"] = "gzip"
            return HttpResponse(stored, content_type="application/json", headers=headers)
        return HttpResponse(
            replay_blob.json_bytes(stored), content_type="application/json", headers=headers
        )


class SeatLogSerializer(serializers.Serializer):  # type: ignore[type-arg]
    match = serializers.IntegerField()
    seat = serializers.IntegerField()
    version = serializers.IntegerField()
    log = serializers.CharField()


class SeatLogView(APIView):
    """What a bot printed in a match: for that bot's author only."""

    permission_classes = (IsAuthenticated,)
    refusals: ClassVar[Refusals] = {"GET": (403,)}  # the schema's error answers (api.schema)

    @extend_schema(responses={200: SeatLogSerializer})
    def get(self, request: Request, pk: int, seat: int) -> Response:
        row = seat_with_log(pk, seat)
        if row is None:
            raise exceptions.NotFound("no such seat")
        if not is_author(request.user, row.version.bot.owner_id):
            raise exceptions.PermissionDenied("a seat's log is for its bot's author only")
        return Response({"match": pk, "seat": seat, "version": row.version_id, "log": row.log})
