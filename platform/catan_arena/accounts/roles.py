"""Roles are Django groups with fixed permissions (a migration makes them; operators
grant a role in the admin or with :func:`.services.grant_role`)."""

from __future__ import annotations

ORGANIZERS = "Organizers"
ORGANIZE = "tournaments.organize"
"""The permission to organize tournaments (held by the Organizers role)."""

ROLE_PERMISSIONS: dict[str, dict[str, list[str]]] = {
    ORGANIZERS: {
        "tournaments": ["organize", "add_tournament", "change_tournament", "view_tournament"],
        "ladder": ["change_laddersettings", "view_laddersettings"],
    },
}
"""Role → app label → permission codenames."""


def may_organize(user: object) -> bool:
    """Whether ``user`` (signed in or not) may organize tournaments: the one check the
    services, the API, the pages and the admin make."""
    return bool(getattr(user, "is_authenticated", False) and user.has_perm(ORGANIZE))  # type: ignore[attr-defined]
