"""The one application error: what services raise when they refuse a request.

An :class:`AppError` carries a plain-words message, a machine ``code`` and the HTTP
``status`` it means, and optionally the input ``field`` it is about. It is mapped once
for each door: the API's exception handler (:mod:`catan_arena.api.errors`: the JSON error
shape), the pages' helpers (:mod:`catan_arena.web.errors`: the form's error or a
message), management commands (:class:`catan_arena.core.commands.AppCommand`: a
``CommandError``). Call sites never translate it by hand.

Each app subclasses the kind that fits (``TournamentError(Conflict)``, ...), so callers
and tests can still catch one app's refusals."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import JsonResponse


class AppError(Exception):
    """A request refused by a service; the message says why, in the user's words."""

    status: int = 400
    code: str = "invalid"
    field: str | None = None
    """The input the error is about (the API lists it under ``fields``; a form shows the
    message beside that field when it has one)."""

    def __init__(
        self, message: str, *, field: str | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        if field is not None:
            self.field = field
        self.retry_after = retry_after
        """Seconds until trying again may succeed (rate limits), when known."""


class Invalid(AppError):
    """The input is not acceptable as given (400)."""


class Forbidden(AppError, PermissionDenied):
    """The user may not do this (403). Also Django's ``PermissionDenied``, so a door that
    does not map it (the admin) still answers 403."""

    status = 403
    code = "permission_denied"


class NotFound(AppError):
    """No such object (404)."""

    status = 404
    code = "not_found"


class Conflict(AppError):
    """The request clashes with the object's state, e.g. entries are closed (409)."""

    status = 409
    code = "conflict"


class TooLarge(AppError):
    """The input is over a size cap (413)."""

    status = 413
    code = "too_large"


class RateLimited(AppError):
    """The user is at one of their limits; try again later (429)."""

    status = 429
    code = "throttled"


class Unavailable(AppError):
    """The platform cannot do it now, through no fault of the user's (503)."""

    status = 503
    code = "unavailable"


def json_error(status: int, code: str, message: str, **extra: Any) -> JsonResponse:
    """The API's one error shape, ``{"error": {"status", "code", "message", ...}}``, for
    answers made outside DRF's views (an unknown URL, a locked-out log-in)."""
    body = {"status": status, "code": code, "message": message, **extra}
    return JsonResponse({"error": body}, status=status)
