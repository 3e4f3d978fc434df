"""Roles are Django groups with fixed permissions (a migration makes them; operators
grant a role in the admin or with :func:`.services.grant_role`)."""

from __future__ import annotations

ORGANIZERS = "Organizers"

ROLE_PERMISSIONS: dict[str, dict[str, list[str]]] = {
    ORGANIZERS: {
        "tournaments": ["organize", "add_tournament", "change_tournament", "view_tournament"],
        "ladder": ["change_laddersettings", "view_laddersettings"],
    },
}
"""Role → app label → permission codenames."""
