"""The log-in limit's hooks into django-axes (configured in settings: ``AXES_*``): which
account a try is counted against, and the answer to a locked-out try on each door."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from catan_arena.accounts.usernames import key
from catan_arena.core.errors import json_error


def username_of_attempt(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The account a try is counted against: every spelling of one name counts together."""
    raw = (credentials or {}).get("username")
    if raw is None:
        raw = request.POST.get("username")
    return key(str(raw)) if raw is not None else None


def cool_off_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def locked_out_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """429 with ``Retry-After``: the API's JSON error shape under /api/, else the
    site's too-many page (the admin's log-in included)."""
    wait = cool_off_seconds()
    if request.path.startswith("/api/"):
        message = "too many failed log-ins for this account or address: try again later"
        response: HttpResponse = json_error(429, "throttled", message, retry_after_seconds=wait)
    else:
        response = render(request, "web/too_many.html", {"wait": wait}, status=429)
    response["Retry-After"] = str(wait)
    return response
