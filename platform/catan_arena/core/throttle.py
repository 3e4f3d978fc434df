"""A fixed-window rate limit for the site's forms (log in, sign up), on Django's cache
and with the API's own rates (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``): the same
limit whichever door is used. Shared by every web process when the cache is Redis
(``CACHE_URL``); per process on the default local-memory cache."""

from __future__ import annotations

import hashlib
import time
from typing import cast

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate(scope: str) -> tuple[int, int]:
    """(requests, seconds) of a scope's rate such as ``10/minute``."""
    rates = cast(dict[str, str], settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])
    count, _, period = rates[scope].partition("/")
    return int(count), PERIODS[period[:1]]


def client_address(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR", ""))


def hit(scope: str, key: str) -> int | None:
    """Count one request of ``key`` (e.g. the client's address) in ``scope``; None if
    it is allowed, else the seconds until the window ends."""
    limit, seconds = rate(scope)
    window = int(time.time() // seconds)
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    name = f"throttle:{scope}:{digest}:{window}"
    cache.add(name, 0, timeout=seconds + 1)
    try:
        count = cache.incr(name)
    except ValueError:  # the entry expired between add and incr: a new window
        cache.set(name, 1, timeout=seconds + 1)
        count = 1
    if count <= limit:
        return None
    return max(1, (window + 1) * seconds - int(time.time()))
