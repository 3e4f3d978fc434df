"""Chance: every random outcome is drawn from one of the game's chance streams
(:mod:`engine.rng`: dice, deck, steals) and recorded with the step that caused it, so a
replay can re-apply it without re-rolling.

Outcomes: dice ``[d1, d2]``; a development card bought (its kind); a stolen card (its
resource). ``draw_*`` take an optional ``forced`` outcome (from a replay); a forced
outcome is checked for possibility and raises ``ReplayError`` if it is impossible.
"""

from __future__ import annotations

from engine.errors import ReplayError
from engine.rng import ChanceStream


def roll_dice(stream: ChanceStream, forced: object = None) -> tuple[int, int]:
    if forced is None:
        return stream.dice()
    if (
        isinstance(forced, (list, tuple))
        and len(forced) == 2
        and all(isinstance(d, int) and 1 <= d <= 6 for d in forced)
    ):
        return (forced[0], forced[1])
    raise ReplayError(f"impossible dice outcome {forced!r}")


def draw_from(stream: ChanceStream, counts: list[int], forced: object = None) -> int:
    """Index of one item drawn uniformly from a multiset given as counts per kind."""
    if forced is None:
        total = sum(counts)
        if total <= 0:
            raise ValueError("draw from an empty multiset")
        pick = stream.below(total)
        for kind, count in enumerate(counts):
            if pick < count:
                return kind
            pick -= count
        raise ValueError("draw from an empty multiset")
    if isinstance(forced, int) and 0 <= forced < len(counts) and counts[forced] > 0:
        return forced
    raise ReplayError(f"impossible draw {forced!r} from {counts}")
