"""What the default cache can be relied on for."""

from __future__ import annotations

from django.conf import settings

PROCESS_LOCAL_BACKENDS = ("LocMemCache", "DummyCache")
"""Cache backends whose entries no other process sees (kept in the process, or dropped)."""


def cache_is_shared() -> bool:
    """Whether what one process puts in the default cache is seen by the others (Redis,
    a database, files; ``CACHE_URL``), so that a worker can fill it for the web."""
    backend: str = settings.CACHES["default"]["BACKEND"]
    return not backend.endswith(PROCESS_LOCAL_BACKENDS)
