"""The API's side of :mod:`catan_arena.abtests.fair_use`: every upload attempt counts
before its body is read (a refusal is the handler's 429, with ``retry_after_seconds``
when known)."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from catan_arena.abtests.fair_use import admit_upload
from catan_arena.accounts.models import User


class UploadThrottle(BaseThrottle):
    """Counts every upload attempt against the one ``upload`` rate the site's form
    counts against too (:func:`~catan_arena.abtests.fair_use.admit_upload`), before the
    body is read; refuses with the reason."""

    def allow_request(self, request: Request, view: Any) -> bool:
        user = request.user
        if isinstance(user, User):  # else the permission check has refused it already
            admit_upload(user)
        return True
