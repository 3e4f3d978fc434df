"""A running match for spectators: the latest live replay the worker wrote
(:mod:`catan_arena.matches.live`), drawn with public information only (hands and
development cards as counts, public points): exactly what every seat can see."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from catan_arena.matches.models import Match
from catan_arena.matches.selectors import may_watch
from catan_arena.web import replay_view
from engine.errors import ReplayError
from engine.replay import Replay


@dataclass(frozen=True)
class LiveView:
    match: Match
    frame: replay_view.Frame | None
    """None until the worker's first write (or if it cannot be read, or is withheld)."""
    withheld: bool = False
    """A game sharing its seed is still to play: nothing of the play is shown."""

    @property
    def events(self) -> list[str]:
        """The latest events in words, newest first."""
        return [words for _, words in self.frame.recent] if self.frame else []

    @property
    def is_live(self) -> bool:
        return self.match.status in Match.IN_FLIGHT


def live_view(match_id: int, user: Any) -> LiveView | None:
    """The live view of match ``match_id`` for ``user`` (None if there is no such
    match); withheld while another game sharing its seed is to play (:func:`may_watch`)."""
    match = Match.objects.filter(pk=match_id).only("status", "live", "rules", "seed").first()
    if match is None:
        return None
    if match.status == Match.Status.RUNNING and not may_watch(match, user):
        return LiveView(match, None, withheld=True)
    if not match.live or match.status != Match.Status.RUNNING:
        return LiveView(match, None)
    try:
        replay = Replay.from_dict(match.live)
        shown = replay_view.frame(replay, len(replay.steps), public=True)
    except ReplayError:
        return LiveView(match, None)
    return LiveView(match, shown)
