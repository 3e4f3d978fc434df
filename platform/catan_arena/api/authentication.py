"""``Authorization: Token <key>`` (or ``Bearer <key>``) with the hashed API tokens."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from catan_arena.accounts.tokens import user_for_key


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keywords = ("token", "bearer")

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower().decode(errors="replace") not in self.keywords:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("write the header as: Authorization: Token KEY")
        try:
            key = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("the token is not plain ASCII") from None
        found = user_for_key(key)
        if found is None:
            raise exceptions.AuthenticationFailed("unknown or revoked token")
        return found

    def authenticate_header(self, request: Request) -> str:
        return 'Token realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The header as sent, either way the server reads it: ``Bearer <key>`` (HTTP bearer,
    what generated clients send) or ``Token <key>`` (the ``Authorization`` header's whole
    value, as the command line sends it)."""

    target_class = "catan_arena.api.authentication.ApiTokenAuthentication"
    name = ["bearerAuth", "tokenAuth"]  # noqa: RUF012 (the base declares it so)

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, list[Any]]]:
        return [{"bearerAuth": []}, {"tokenAuth": []}]  # either one (OR)

    def get_security_definition(self, auto_schema: Any) -> list[dict[str, str]]:
        made = "make a key with POST /api/v1/auth/token/ or POST /api/v1/me/tokens/"
        return [
            {"type": "http", "scheme": "bearer", "description": f"`Bearer <key>`: {made}"},
            {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": f"The header's whole value, `Token <key>`: {made}",
            },
        ]
