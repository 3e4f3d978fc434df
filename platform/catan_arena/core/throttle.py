"""The client's real address (behind ``TRUSTED_PROXIES`` proxies), the one key of every
per-address limit (the log-in limit, django-axes, reads it too); a fixed-window rate
limit for the sign-up form, on Django's cache with the API's rates
(``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``). Shared by every web process when the
cache is Redis (``CACHE_URL``); per process on the default local-memory cache."""

from __future__ import annotations

import hashlib
import ipaddress
import time
from typing import cast

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from catan_arena.core.rates import Rate, parse_rate


def rate(scope: str) -> Rate:
    """A scope's rate (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, checked at start-up)."""
    rates = cast(dict[str, str], settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])
    return parse_rate(rates[scope])


def client_address(request: HttpRequest) -> str:
    """The address the outermost trusted proxy saw: with ``TRUSTED_PROXIES`` = n, the
    n-th address from the right of ``X-Forwarded-For`` (each proxy appends the address it
    saw); with 0, or a header too short or not an address, the connecting address.
    Whatever a client writes further left never changes it."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    proxies = int(settings.TRUSTED_PROXIES)
    if proxies < 1:
        return remote
    hops = [hop.strip() for hop in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    if len(hops) < proxies:
        return remote
    try:
        return str(ipaddress.ip_address(hops[-proxies]))
    except ValueError:
        return remote


def hit(scope: str, key: str) -> int | None:
    """Count one request of ``key`` (e.g. the client's address) in ``scope``; None if
    it is allowed, else the seconds until the window ends."""
    limit, seconds = rate(scope).count, rate(scope).seconds
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
