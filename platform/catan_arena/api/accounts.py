"""The current user, their API tokens, and a token for a username and password."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from catan_arena.accounts.models import ApiToken, User
from catan_arena.accounts.roles import may_organize
from catan_arena.accounts.selectors import tokens_of
from catan_arena.accounts.tokens import create_token, revoke_token
from catan_arena.api.authentication import ApiTokenAuthentication
from catan_arena.api.schema import Refusals


class UserSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    is_organizer = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ("id", "username", "date_joined", "is_organizer")

    def get_is_organizer(self, user: User) -> bool:
        return may_organize(user)


class TokenSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    class Meta:
        model = ApiToken
        fields = ("id", "name", "prefix", "created_at", "last_used_at")
        read_only_fields = ("id", "prefix", "created_at", "last_used_at")


class NewTokenSerializer(TokenSerializer):
    key = serializers.CharField(read_only=True, help_text="Shown once: keep it secret.")

    class Meta(TokenSerializer.Meta):
        fields = (*TokenSerializer.Meta.fields, "key")  # type: ignore[assignment]


class LoginSerializer(serializers.Serializer):  # type: ignore[type-arg]
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=256, style={"input_type": "password"})
    name = serializers.CharField(max_length=60, default="command line")


class MeView(generics.RetrieveAPIView):  # type: ignore[type-arg]
    """The signed-in user."""

    serializer_class = UserSerializer
    permission_classes = (IsAuthenticated,)

    def get_object(self) -> Any:
        return self.request.user


class TokenListView(generics.ListCreateAPIView):  # type: ignore[type-arg]
    """The signed-in user's API tokens; POST makes one (its key is in that reply only)."""

    serializer_class = TokenSerializer
    permission_classes = (IsAuthenticated,)
    pagination_class = None

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # the schema generator
            return ApiToken.objects.none()
        return tokens_of(self.request.user)  # type: ignore[arg-type]

    @extend_schema(request=TokenSerializer, responses={201: NewTokenSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = TokenSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        token, key = create_token(request.user, incoming.validated_data["name"])  # type: ignore[arg-type]
        body = NewTokenSerializer(token).data | {"key": key}
        return Response(body, status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        """Revoke one of your tokens."""
        if not revoke_token(request.user, pk):  # type: ignore[arg-type]
            from rest_framework.exceptions import NotFound

            raise NotFound("no such token of yours")
        return Response(status=status.HTTP_204_NO_CONTENT)


class LoginView(APIView):
    """A new API token for a username and password (one answer for any wrong pair, so
    it tells nobody which usernames exist). The log-in limit of every door counts it
    (django-axes, through ``authenticate``): a locked-out try answers 429."""

    permission_classes = (AllowAny,)
    authentication_classes = (ApiTokenAuthentication,)  # a failed login answers 401
    refusals: ClassVar[Refusals] = {"POST": (429,)}

    # no security: the log-in is how a client without a key gets one (a key sent anyway
    # is checked, so a bad one still answers 401)
    @extend_schema(request=LoginSerializer, responses={201: NewTokenSerializer}, auth=[])
    def post(self, request: Request) -> Response:
        incoming = LoginSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        # Django's request: the limit's middleware reads the lock-out mark from it.
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None or not isinstance(user, User):
            from rest_framework.exceptions import AuthenticationFailed

            raise AuthenticationFailed("wrong username or password")
        token, key = create_token(user, data["name"])
        return Response(
            NewTokenSerializer(token).data | {"key": key}, status=status.HTTP_201_CREATED
        )
