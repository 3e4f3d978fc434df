"""The API's side of :mod:`catan_arena.core.fair_use`: a refusal is a 429 with its
message (and ``retry_after_seconds`` when known)."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from catan_arena.accounts.models import User
from catan_arena.core.fair_use import FairUseExceeded, admit_upload


def too_busy(exc: FairUseExceeded) -> exceptions.Throttled:
    """The 429 for a fair-use refusal."""
    return exceptions.Throttled(wait=exc.retry_after, detail=str(exc))


class UploadThrottle(BaseThrottle):
    """Counts every upload attempt against the one ``upload`` rate the site's form
    counts against too (:func:`~catan_arena.core.fair_use.admit_upload`), before the
    body is read; refuses with the reason."""

    def allow_request(self, request: Request, view: Any) -> bool:
        user = request.user
        if not isinstance(user, User):
            return True  # the permission check has refused it already
        try:
            admit_upload(user)
        except FairUseExceeded as exc:
            raise too_busy(exc) from None
        return True
