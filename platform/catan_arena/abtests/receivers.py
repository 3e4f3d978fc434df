"""What A/B tests do when a match is done (connected in :class:`.apps.AbTestsConfig`)."""

from __future__ import annotations

from typing import Any

from catan_arena.abtests.services import note_ab_match_done
from catan_arena.matches.models import Match


def ab_test_progress(sender: object, match: Match, **kwargs: Any) -> None:
    if match.ab_test_id is not None:
        note_ab_match_done(match.ab_test_id)
