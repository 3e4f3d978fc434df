"""How fast the ladder plays, pure (no Django).

*Full speed* keeps ``tables_in_flight`` ladder matches queued or running. Once the
ladder has *settled* — every version on it has at least ``settled_games`` rated games —
more games barely move the order, so it plays in the *background*: at most one new
match per ``background_interval`` seconds (still never more than the free slots). A
version under the threshold (a newcomer, or one whose games are still in flight) puts
it back to full speed at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FULL = "full speed"
BACKGROUND = "background"


@dataclass(frozen=True)
class Pace:
    mode: str
    """:data:`FULL` or :data:`BACKGROUND`."""
    tables: int
    """New tables that may be started now."""
    waiting: int
    """Versions under the settled threshold."""
    free_slots: int
    """Tables in flight not taken (what full speed would start)."""


def ladder_pace(
    games: Sequence[int],
    *,
    free_slots: int,
    settled_games: int,
    background_interval: float,
    since_last_match: float | None,
) -> Pace:
    """The pace for a ladder whose versions have ``games`` rated games each, with
    ``free_slots`` of its tables in flight free, its last ladder match made
    ``since_last_match`` seconds ago (None: never)."""
    free_slots = max(0, free_slots)
    waiting = sum(1 for g in games if g < settled_games)
    if waiting:
        return Pace(FULL, free_slots, waiting, free_slots)
    due = since_last_match is None or since_last_match >= background_interval
    return Pace(BACKGROUND, min(1, free_slots) if due else 0, 0, free_slots)
