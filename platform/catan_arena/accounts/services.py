"""Writes on accounts."""

from __future__ import annotations

from catan_arena.accounts.models import User

SYSTEM_USERNAME = "catan-arena"


def system_user() -> User:
    """The system account that owns the built-in bots (made on first use; no password)."""
    user, created = User.objects.get_or_create(
        username=SYSTEM_USERNAME, defaults={"is_system": True}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user
