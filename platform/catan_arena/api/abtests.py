"""A/B tests of two versions of yours: start one, follow its running result, cancel."""

from __future__ import annotations

from typing import Any, ClassVar

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catan_arena.abtests.models import ABPair, ABTest
from catan_arena.abtests.selectors import ab_tests_for, describe
from catan_arena.abtests.services import (
    DEFAULT_MARGIN,
    cancel_ab_test,
    ladder_limits,
    request_ab_test,
)
from catan_arena.api.schema import Refusals
from catan_arena.core.limits import AB_PAIRS_DEFAULT, DECISION_BOUND, ab_pairs_bound
from catan_arena.ratings.sprt import DEFAULT_RISK
from catan_arena.submissions.models import BotVersion


class PairSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    class Meta:
        model = ABPair
        fields = ("number", "seat", "match_a", "match_b", "difference", "void")
        read_only_fields = fields


class ABTestSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    requested_by = serializers.CharField(source="requested_by.username", read_only=True)
    summary = serializers.SerializerMethodField()

    class Meta:
        model = ABTest
        fields = (
            "id", "version_a", "version_b", "requested_by", "status", "verdict", "margin",
            "alpha", "beta", "max_pairs", "table_size", "decision_seconds", "pairs", "mean",
            "llr", "lower", "upper", "created_at", "finished_at", "summary",
        )  # fmt: skip
        read_only_fields = fields

    def get_summary(self, test: ABTest) -> str:
        return describe(test)


class ABTestDetailSerializer(ABTestSerializer):
    pair_set = PairSerializer(many=True, read_only=True)

    class Meta(ABTestSerializer.Meta):
        fields = (*ABTestSerializer.Meta.fields, "pair_set")  # type: ignore[assignment]
        read_only_fields = fields  # type: ignore[assignment]


class NewABTestSerializer(serializers.Serializer):  # type: ignore[type-arg]
    version_a = serializers.PrimaryKeyRelatedField(queryset=BotVersion.objects.all())
    version_b = serializers.PrimaryKeyRelatedField(queryset=BotVersion.objects.all())
    margin = serializers.FloatField(default=DEFAULT_MARGIN)
    alpha = serializers.FloatField(default=DEFAULT_RISK)
    beta = serializers.FloatField(default=DEFAULT_RISK)
    max_pairs = serializers.IntegerField(
        default=AB_PAIRS_DEFAULT,
        min_value=ab_pairs_bound().low,
        help_text="at most the server's CATAN_ARENA_AB_MAX_PAIRS",
    )
    table_size = serializers.IntegerField(default=4)
    decision_seconds = serializers.FloatField(
        required=False,
        min_value=DECISION_BOUND.low,
        max_value=DECISION_BOUND.high,
        help_text="default: the ladder's",
    )
    opponents = serializers.PrimaryKeyRelatedField(
        queryset=BotVersion.objects.all(), many=True, default=list
    )


class ABTestFilter(django_filters.FilterSet):
    requested_by = django_filters.CharFilter(field_name="requested_by__username")

    class Meta:
        model = ABTest
        fields = ("status", "verdict", "requested_by")


class ABTestListView(generics.ListCreateAPIView):  # type: ignore[type-arg]
    """A/B tests, newest first; POST asks whether version B beats version A (both
    yours): paired duplicate games until the sequential test decides. Per author: a few
    tests running at once and a few matches in flight (429 past them, with the reason);
    limits no looser than the ladder's."""

    serializer_class = ABTestSerializer
    filterset_class = ABTestFilter
    refusals: ClassVar[Refusals] = {"POST": (429,)}  # fair use (abtests.fair_use)

    def get_queryset(self) -> QuerySet[ABTest]:
        return ab_tests_for(self.request.user)  # another's answers 404, as if not there

    @extend_schema(request=NewABTestSerializer, responses={201: ABTestSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = NewABTestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        limits = ladder_limits(data.get("decision_seconds"))
        test = request_ab_test(
            request.user,  # type: ignore[arg-type]
            data["version_a"],
            data["version_b"],
            margin=data["margin"],
            alpha=data["alpha"],
            beta=data["beta"],
            max_pairs=data["max_pairs"],
            table_size=data["table_size"],
            limits=limits,
            opponents=data["opponents"],
        )
        return Response(ABTestSerializer(test).data, status=status.HTTP_201_CREATED)


class ABTestDetailView(generics.RetrieveAPIView):  # type: ignore[type-arg]
    """One A/B test: the running result, the verdict, every pair."""

    serializer_class = ABTestDetailSerializer

    def get_queryset(self) -> QuerySet[ABTest]:
        return ab_tests_for(self.request.user).prefetch_related("pair_set")


class ABTestCancelView(APIView):
    permission_classes = (IsAuthenticated,)
    refusals: ClassVar[Refusals] = {"POST": (409,)}

    @extend_schema(request=None, responses={200: ABTestSerializer})
    def post(self, request: Request, pk: int) -> Response:
        """Stop a running test of yours (its queued games are voided)."""
        test = ab_tests_for(request.user).filter(pk=pk).first()
        if test is None:
            raise exceptions.NotFound("no such A/B test")
        cancel_ab_test(request.user, test)  # type: ignore[arg-type]
        test.refresh_from_db()
        return Response(ABTestSerializer(test).data)
