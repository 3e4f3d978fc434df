"""A running match for spectators: the latest live replay the worker wrote
(:mod:`catan_arena.matches.live`), with public information only (hands and development
cards as counts, public points): exactly what every seat can see, never the seed.

Two forms of one fact: :func:`live_view`, the server-drawn first paint of the match page
(and its whole view without JavaScript), and :func:`live_update`, the data
``static/web/viewer.js`` polls (``/matches/N/live/data/?since=K``): the viewer's document
(:mod:`.replay_document`, ``public``) of the steps after ``K`` only, so following a
match costs a few frames a second. Both are withheld (nothing of the play) while a game
sharing the match's seed is still to play (:func:`may_watch`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Func, IntegerField
from django.db.models.fields.json import KeyTransform

from catan_arena.matches.models import Match
from catan_arena.matches.selectors import may_watch
from catan_arena.web import replay_view
from catan_arena.web.replay_document import document
from engine.errors import ReplayError
from engine.replay import Replay

POLL_MS = 1000
"""How often a following page asks for new steps (the worker writes about once a second)."""
CACHED = 60
"""Seconds one write's public document stays cached (spectators share it)."""
WITHHELD = (
    "Playing. The board and dice are shown once every game sharing this match's seed is done."
)


def waiting(match: Match) -> str:
    """What the live view says while there is nothing to draw yet."""
    if match.status == Match.Status.QUEUED:
        return "Waiting for a worker to start this match…"
    return "Starting: the bots are taking their seats…"


@dataclass(frozen=True)
class LiveView:
    match: Match
    frame: replay_view.Frame | None
    """None until the worker's first write (or if it cannot be read, or is withheld)."""
    withheld: bool = False
    """A game sharing its seed is still to play: nothing of the play is shown."""

    @property
    def note(self) -> str:
        """The line shown instead of the board."""
        return WITHHELD if self.withheld else waiting(self.match)


def _match(match_id: int) -> Match | None:
    fields = ("status", "live", "rules", "seed", "attempts")
    return Match.objects.filter(pk=match_id).only(*fields).first()


def _replay(match: Match) -> Replay | None:
    """The worker's latest write, if there is one and it reads as a replay."""
    if not match.live or match.status != Match.Status.RUNNING:
        return None
    try:
        return Replay.from_dict(match.live)
    except (ReplayError, KeyError, TypeError, ValueError):
        return None


def live_view(match_id: int, user: Any) -> LiveView | None:
    """The live view of match ``match_id`` for ``user`` at its newest step (None if
    there is no such match)."""
    match = _match(match_id)
    if match is None:
        return None
    if match.status == Match.Status.RUNNING and not may_watch(match, user):
        return LiveView(match, None, withheld=True)
    replay = _replay(match)
    if replay is None:
        return LiveView(match, None)
    return LiveView(match, replay_view.frame(replay, len(replay.steps), public=True))


FOLLOWED_SECONDS = 3600
"""How long a match counts as followed live after a spectator's last look."""


def note_followed(match_id: int) -> None:
    """A spectator follows this match live (its replay page is then warmed when it ends)."""
    cache.add(f"live-followed:{match_id}", True, timeout=FOLLOWED_SECONDS)


def was_followed(match_id: int) -> bool:
    """Whether a spectator followed this match live (:func:`note_followed`)."""
    return cache.get(f"live-followed:{match_id}") is True


def live_update(match_id: int, user: Any, since: int, attempt: int | None) -> dict[str, Any] | None:
    """What a following page asks every :data:`POLL_MS`: None if there is no such
    match; else JSON-ready ``status``, ``attempt`` and, while it runs:

    - withheld: ``withheld`` and a ``note``, nothing of the play;
    - nothing written yet: a ``note``;
    - else ``steps`` (how many so far), ``since``, ``frames`` (the frames after ``since``
      steps), ``jumps`` (those after ``since``); and when ``since`` is 0, or
      ``attempt`` is not the match's (the worker's attempt was voided and it started
      over), the whole document from step 0 (``since`` 0: ``names``, ``geometry``…).

    Once the match is over: ``done`` (the caller adds what the page shows then)."""
    counted = StepCount(KeyTransform("steps", "live"))
    fields = ("status", "rules", "seed", "attempts")  # not the blob: its steps are counted
    match = Match.objects.filter(pk=match_id).annotate(written=counted).only(*fields).first()
    if match is None:
        return None
    answer: dict[str, Any] = {"status": match.status, "attempt": match.attempts}
    if match.status not in Match.IN_FLIGHT:
        return answer | {"done": True}
    if match.status == Match.Status.RUNNING and not may_watch(match, user):
        return answer | {"withheld": True, "note": WITHHELD}
    if since <= 0:  # a page's first look (once per page, not once per poll)
        note_followed(match_id)
    total = match.written
    if match.status != Match.Status.RUNNING or not total:
        return answer | {"note": waiting(match)}
    if since <= 0 or since > total or attempt != match.attempts:
        since = 0
    key = f"live-data:{match.pk}:{match.attempts}:{total}:{since}"
    found = cache.get(key)
    if isinstance(found, dict):
        return answer | found
    whole = _document(match_id)
    if whole is None:
        return answer | {"note": waiting(match)}
    part = whole if since == 0 else _after(whole, since)
    cache.set(key, part, timeout=CACHED)
    return answer | part


def _after(whole: dict[str, Any], since: int) -> dict[str, Any]:
    """The part of a document after ``since`` steps."""
    return {
        "steps": whole["steps"],
        "since": since,
        "frames": whole["frames"][since + 1 :],
        "jumps": {name: [k for k in ks if k > since] for name, ks in whole["jumps"].items()},
    }


class StepCount(Func):
    """How many steps a JSON array holds, counted by the database (a poll need not load
    the worker's whole blob to learn that nothing changed)."""

    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


def _document(match_id: int) -> dict[str, Any] | None:
    """The public document of the worker's latest write (``since`` 0), cached per write."""
    match = _match(match_id)
    if match is None or not isinstance(match.live, dict):
        return None
    steps = match.live.get("steps")
    if not isinstance(steps, list):
        return None
    key = f"live-document:{match.pk}:{match.attempts}:{len(steps)}"
    found = cache.get(key)
    if isinstance(found, dict):
        return found
    replay = _replay(match)
    if replay is None:
        return None
    try:
        made = document(replay, public=True) | {"since": 0}
    except ReplayError:
        return None
    cache.set(key, made, timeout=CACHED)
    return made
