"""``Server-Timing: app;dur=MS`` on every response: the time the application spent on
the request (no network, no queueing in front of it), for browsers' developer tools and
the load test (``benchmarks/load_test.py``), which reports it per page."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class ServerTimingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        began = time.perf_counter()
        response = self.get_response(request)
        response["Server-Timing"] = f"app;dur={1000 * (time.perf_counter() - began):.1f}"
        return response
