"""Writes on accounts."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.db.models import Q

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS, ROLE_PERMISSIONS

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


def ensure_role(name: str) -> Group:
    """The role's group with exactly its permissions (made or repaired)."""
    group, _ = Group.objects.get_or_create(name=name)
    grants = ROLE_PERMISSIONS[name]
    wanted = Q()
    for app_label, codenames in grants.items():
        wanted |= Q(content_type__app_label=app_label, codename__in=codenames)
    group.permissions.set(Permission.objects.filter(wanted))
    return group


def grant_role(user: User, name: str) -> User:
    """Add ``user`` to a role; returns the user fresh (permissions are cached per object)."""
    user.groups.add(ensure_role(name))
    return User.objects.get(pk=user.pk)


def welcome_new_account(user: User) -> bool:
    """On the embedded default (one person's own platform on 127.0.0.1) the first
    account signed up organizes tournaments, so ``make serve`` needs no other command.
    A server grants the role in the admin. True if it was granted."""
    if not settings.FIRST_ACCOUNT_ORGANIZES:
        return False
    others = User.objects.filter(is_system=False).exclude(pk=user.pk)
    if others.exists():
        return False
    grant_role(user, ORGANIZERS)
    return True
