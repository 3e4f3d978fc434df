"""The REST API's tests share: its prefix, a client signed in with a token, the one
error shape checked."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from catan_arena.accounts.models import User
from catan_arena.accounts.tokens import create_token

API = "/api/v1"


def client_of(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        _, key = create_token(user, "tests")
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def error(response: Any, status: int) -> dict[str, Any]:
    """The one error shape, with the status it claims."""
    assert response.status_code == status, response.content[:500]
    body: dict[str, Any] = response.json()["error"]
    assert body["status"] == status and body["code"] and body["message"]
    return body
