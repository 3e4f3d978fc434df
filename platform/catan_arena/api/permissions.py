"""Who may write: owners their own bots, organizers tournaments."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from catan_arena.accounts.roles import may_organize


class IsOrganizerOrReadOnly(BasePermission):
    message = "only organizers can do this"

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return may_organize(request.user)


def is_owner(request: Request, owner_id: Any) -> bool:
    return bool(request.user.is_authenticated and request.user.pk == owner_id)
