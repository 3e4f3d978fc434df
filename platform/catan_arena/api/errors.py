"""Every API error is JSON of one shape, with the right status code:

    {"error": {"status": 400, "code": "invalid", "message": "...", "fields": {...}}}

``fields`` (validation errors only) maps each field to its messages. A service's
:class:`~catan_arena.core.errors.AppError` is mapped here, once: its status and code, its
``field`` under ``fields``, a rate limit's ``retry_after_seconds``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler

from catan_arena.core.errors import AppError, RateLimited, json_error


class ApiErrorBodySerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The schema's description of ``error`` (what :func:`api_exception_handler` writes)."""

    status = serializers.IntegerField(help_text="The HTTP status code.")
    code = serializers.CharField(help_text="A machine code: invalid, not_found, throttled...")
    message = serializers.CharField(help_text="What went wrong, in plain words.")
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Validation errors only: each field's messages.",
    )
    retry_after_seconds = serializers.IntegerField(
        required=False, help_text="Rate limits only, when known: when to try again."
    )


class ApiErrorSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """Every error answer of the API (its schema component ``ApiError``)."""

    error = ApiErrorBodySerializer()


def _message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _message(detail[0])
    if isinstance(detail, dict) and detail:
        field, value = next(iter(detail.items()))
        return f"{field}: {_message(value)}"
    return str(detail)


def _from_app_error(exc: AppError) -> exceptions.APIException:
    """DRF's exception for a service's refusal (then handled like any other)."""
    if exc.field is not None:
        return exceptions.ValidationError({exc.field: [exc.message]})
    if isinstance(exc, RateLimited):
        return exceptions.Throttled(wait=exc.retry_after, detail=exc.message)
    mapped = exceptions.APIException(exc.message, exc.code)
    mapped.status_code = exc.status
    return mapped


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, AppError):
        exc = _from_app_error(exc)
    elif isinstance(exc, DjangoPermissionDenied):
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


@csrf_exempt  # it changes nothing: a POST gets the JSON 404 too, not a CSRF page
def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """404 for unknown URLs under /api/, any method (Django's own handler renders HTML),
    bad path values included (a bot name outside the slug pattern matches no route)."""
    return json_error(404, "not_found", "no such endpoint")
