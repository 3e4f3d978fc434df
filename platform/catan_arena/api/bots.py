"""Bots and their versions: read by anyone; uploads, withdrawals by their author."""

from __future__ import annotations

from typing import ClassVar

import django_filters
from django.conf import settings
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catan_arena.abtests.fair_use import upload_within_limits
from catan_arena.api.fair_use import UploadThrottle
from catan_arena.api.permissions import is_owner
from catan_arena.api.schema import Refusals
from catan_arena.core.errors import TooLarge
from catan_arena.ladder.selectors import is_on_ladder, with_on_ladder
from catan_arena.ladder.services import reinstate_version, withdraw_version
from catan_arena.submissions.models import Bot, BotVersion
from catan_arena.submissions.selectors import (
    bots_with_playing_version,
    is_author,
    version_with_bot,
    versions_newest_first,
)
from catan_arena.submissions.upload_handler import request_too_large


class VersionSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    bot = serializers.CharField(source="bot.name", read_only=True)
    owner = serializers.CharField(source="bot.owner.username", read_only=True)
    sha256 = serializers.CharField(source="content_id", read_only=True)
    on_ladder = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField(
        help_text="The whole validation report (what the bot printed, its traceback): "
        "for its author only, null for anyone else."
    )

    class Meta:
        model = BotVersion
        fields = (
            "id", "bot", "owner", "number", "status", "kind", "filename", "sha256", "summary",
            "report", "builtin", "created_at", "status_changed_at", "withdrawn_at", "inherits_from",
            "on_ladder",
        )  # fmt: skip
        read_only_fields = fields

    def get_on_ladder(self, version: BotVersion) -> bool:
        annotated = getattr(version, "on_ladder", None)  # :func:`versions` annotates it
        return is_on_ladder(version) if annotated is None else bool(annotated)

    def get_report(self, version: BotVersion) -> str | None:
        user = getattr(self.context.get("request"), "user", None)
        mine = user is not None and is_author(user, version.bot.owner_id)
        return version.report if mine else None


class BotSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    owner = serializers.CharField(source="owner.username", read_only=True)
    playing_version = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="Id of its newest active version."
    )

    class Meta:
        model = Bot
        fields = ("id", "name", "owner", "description", "created_at", "playing_version")
        read_only_fields = fields


class UploadSerializer(serializers.Serializer):  # type: ignore[type-arg]
    file = serializers.FileField(help_text="A .py file or a .zip package (see the bot guide).")
    description = serializers.CharField(
        max_length=2000, required=False, default="", allow_blank=True
    )
    inherit_rating = serializers.BooleanField(
        default=False, help_text="Start on the ladder from the bot's current rating."
    )


class UploadResultSerializer(serializers.Serializer):  # type: ignore[type-arg]
    created = serializers.BooleanField()
    message = serializers.CharField()
    version = VersionSerializer()


class BotFilter(django_filters.FilterSet):
    owner = django_filters.CharFilter(field_name="owner__username")

    class Meta:
        model = Bot
        fields = ("owner",)


class BotListView(generics.ListAPIView):  # type: ignore[type-arg]
    """Every bot, by name."""

    serializer_class = BotSerializer
    filterset_class = BotFilter

    def get_queryset(self) -> QuerySet[Bot]:
        return bots_with_playing_version().order_by("name")


class BotDetailView(generics.RetrieveAPIView):  # type: ignore[type-arg]
    serializer_class = BotSerializer
    lookup_field = "name"

    def get_queryset(self) -> QuerySet[Bot]:
        return bots_with_playing_version()


class VersionFilter(django_filters.FilterSet):
    bot = django_filters.CharFilter(field_name="bot__name")
    owner = django_filters.CharFilter(field_name="bot__owner__username")

    class Meta:
        model = BotVersion
        fields = ("bot", "owner", "status")


class VersionListView(generics.ListAPIView):  # type: ignore[type-arg]
    """Every version, newest first (filter by bot, owner, status)."""

    serializer_class = VersionSerializer
    filterset_class = VersionFilter

    def get_queryset(self) -> QuerySet[BotVersion]:
        return with_on_ladder(versions_newest_first())


class VersionDetailView(generics.RetrieveAPIView):  # type: ignore[type-arg]
    """One version with its status and validation report."""

    serializer_class = VersionSerializer

    def get_queryset(self) -> QuerySet[BotVersion]:
        return with_on_ladder(versions_newest_first())


class UploadView(APIView):
    """Upload the next version of a bot of yours (made if the name is new). Validation
    runs on a worker: poll the version until its status is ``active`` or ``rejected``."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser,)  # the API's one multipart body; the schema says so
    throttle_classes = (UploadThrottle,)  # the same count as the site's upload form
    refusals: ClassVar[Refusals] = {"POST": (409, 413, 429)}  # api.schema

    @extend_schema(
        request=UploadSerializer,
        responses={201: UploadResultSerializer, 200: UploadResultSerializer},
    )
    def post(self, request: Request, name: str) -> Response:
        data = request.data  # parsed by the capped upload handler first
        if request_too_large(request._request):
            raise TooLarge(
                f"the request is over the {settings.UPLOAD_MAX_BYTES:,}-byte upload cap: not read"
            )
        incoming = UploadSerializer(data=data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        upload = data["file"]
        if upload.size > settings.UPLOAD_MAX_BYTES:  # before reading it
            raise TooLarge(
                f"the file is {upload.size:,} bytes; uploads are limited to "
                f"{settings.UPLOAD_MAX_BYTES:,}"
            )
        outcome = upload_within_limits(
            request.user,  # type: ignore[arg-type]
            name,
            upload.name or "",
            upload.read(),
            description=data["description"],
            inherit_rating=data["inherit_rating"],
        )
        body = {
            "created": outcome.created,
            "message": outcome.message,
            "version": VersionSerializer(outcome.version, context={"request": request}).data,
        }
        return Response(body, status=status.HTTP_201_CREATED if outcome.created else 200)


class WithdrawView(APIView):
    """Take your version off the ladder (``DELETE``: put it back)."""

    permission_classes = (IsAuthenticated,)
    refusals: ClassVar[Refusals] = {"POST": (409,), "DELETE": (409,)}

    def _version(self, request: Request, pk: int) -> BotVersion:
        version = version_with_bot(pk)
        if version is None:
            raise exceptions.NotFound("no such version")
        if not is_owner(request, version.bot.owner_id):
            raise exceptions.PermissionDenied("only the bot's author can do this")
        return version

    @extend_schema(request=None, responses={200: VersionSerializer})
    def post(self, request: Request, pk: int) -> Response:
        version = self._version(request, pk)
        withdraw_version(request.user, version)  # type: ignore[arg-type]
        return Response(VersionSerializer(version, context={"request": request}).data)

    @extend_schema(request=None, responses={200: VersionSerializer})
    def delete(self, request: Request, pk: int) -> Response:
        version = self._version(request, pk)
        reinstate_version(request.user, version)  # type: ignore[arg-type]
        return Response(VersionSerializer(version, context={"request": request}).data)
