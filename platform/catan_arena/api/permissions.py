"""Who may write: owners their own bots, organizers tournaments."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView


class IsOrganizerOrReadOnly(BasePermission):
    message = "only organizers can do this"

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.has_perm("tournaments.organize"))


def is_owner(request: Request, owner_id: Any) -> bool:
    return bool(request.user.is_authenticated and request.user.pk == owner_id)
