"""The health check and the API-aware server error page."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults


def health(request: HttpRequest) -> JsonResponse:
    """200 when the database answers (the compose file's health check)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON in the API's error shape under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        body = {"status": 500, "code": "server_error", "message": "the server failed; retry"}
        return JsonResponse({"error": body}, status=500)
    return defaults.server_error(request)
