"""The match-finished hook: matches knows nothing of who listens.

:data:`match_done` is sent inside the transaction that recorded a match's result or
gave it up (``finished`` or ``failed``), with the ``match``. The apps above subscribe
in their ``AppConfig.ready()``, after matches' own (count a finished match into the
pages' tallies): ratings (apply the ladder's ready ratings), the ladder (top up after a
matchmaker's match), tournaments (``note_match_done``), A/B tests
(``note_ab_match_done``) and the site (warm a replay page's cache on commit).
Receivers run in ``INSTALLED_APPS`` order, so ratings are applied before the
competitions hear of the match; an exception in one rolls the whole
transaction back, as a direct call would."""

from __future__ import annotations

from django.dispatch import Signal

match_done = Signal()
"""Sent with ``match`` (a :class:`~catan_arena.matches.models.Match`, already saved) and,
for a finished match, ``seats``: its :class:`~catan_arena.matches.models.MatchSeat` rows
as just written, in seat order."""
