"""Every API error is JSON of one shape, with the right status code:

    {"error": {"status": 400, "code": "invalid", "message": "...", "fields": {...}}}

``fields`` (validation errors only) maps each field to its messages."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class Conflict(exceptions.APIException):
    """409: the request clashes with the object's state (e.g. entries are closed)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "the request conflicts with the current state"
    default_code = "conflict"


def _message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _message(detail[0])
    if isinstance(detail, dict) and detail:
        field, value = next(iter(detail.items()))
        return f"{field}: {_message(value)}"
    return str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = exception_handler(exc, context)
    if response is None:
        return None
    detail = getattr(exc, "detail", response.data)
    body: dict[str, Any] = {
        "status": response.status_code,
        "code": _code(exc, detail),
        "message": _message(detail),
    }
    if isinstance(exc, exceptions.ValidationError) and isinstance(detail, dict):
        body["fields"] = {k: [str(m) for m in v] if isinstance(v, list) else [str(v)]
                          for k, v in detail.items()}  # fmt: skip
        body["message"] = "some fields are not valid"
    wait = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        body["retry_after_seconds"] = int(wait)
    response.data = {"error": body}
    return response


def _code(exc: Exception, detail: Any) -> str:
    if isinstance(exc, exceptions.ValidationError):
        return "invalid"
    codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
    return codes if isinstance(codes, str) else "error"


def json_error(status: int, code: str, message: str, **extra: Any) -> JsonResponse:
    """An error of the one shape answered outside DRF's views (an unknown URL, a
    locked-out log-in)."""
    body = {"status": status, "code": code, "message": message, **extra}
    return JsonResponse({"error": body}, status=status)


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """404 for unknown URLs under /api/ (Django's own handler renders HTML)."""
    return json_error(404, "not_found", "no such endpoint")
