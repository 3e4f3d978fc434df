"""Reads on accounts."""

from __future__ import annotations

from django.db.models import QuerySet

from catan_arena.accounts.models import ApiToken, User


def tokens_of(user: User) -> QuerySet[ApiToken]:
    """The user's API tokens (none for an anonymous user)."""
    return ApiToken.objects.filter(user_id=user.pk or 0)


def username_taken(name: str) -> bool:
    """Whether an account has this name, whatever its case."""
    return User.objects.filter(username__iexact=name).exists()
