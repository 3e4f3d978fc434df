"""A stable integer encoding of actions, for learning bots.

The action space is a fixed, sorted list of every enumerable action: every entry of the
interned tables in :mod:`engine.actions`, plus the singletons. Its order never changes
within a :data:`CODEC_VERSION`; any change to it (even appending) bumps the version, so a
trained policy can check which encoding it was trained on.

Layout (``CODEC_VERSION = 1``, :data:`ACTION_SPACE_SIZE` = 402), blocks in this order,
each block sorted by its parameters:

=====  =======  ==========================================================================
first  count    actions
=====  =======  ==========================================================================
0      1        ``roll``
1      1        ``end``
2      72       ``road e`` for e = 0..71 (index ``2 + e``)
74     54       ``settle n`` for n = 0..53 (index ``74 + n``)
128    54       ``city n`` for n = 0..53 (index ``128 + n``)
182    1        ``buy``
183    1        ``knight``
184    1        ``road-building``
185    15       ``plenty a b`` for the unordered pairs a <= b, lexicographic
                (brick brick, brick lumber, ..., brick ore, lumber lumber, ..., ore ore)
200    5        ``monopoly r`` (index ``200 + r``)
205    25       ``bank g t`` (index ``205 + 5 g + t``; the g == t entries are never legal)
230    5        ``discard r`` (index ``230 + r``)
235    133      ``robber h [v]`` (index ``235 + 7 h + (v + 1)``; v = -1 means no victim,
                victims up to seat 5)
368    25       one-for-one offers ``offer 1g for 1t`` (index ``368 + 5 g + t``; the
                g == t entries are never legal)
393    1        ``accept``
394    1        ``reject``
395    6        ``confirm k`` for seat k = 0..5 (index ``395 + k``)
401    1        ``cancel``
=====  =======  ==========================================================================

Resources are indexed brick, lumber, wool, grain, ore (``engine.types.Resource``).

Counter-offers and offers other than one for one are *not* in the space: a learning bot
that wants them must build the action itself. :func:`encode` raises ``KeyError`` for
them; :func:`legal_mask` simply leaves them out. Seat-dependent entries (robber victims,
``confirm k``) use absolute seat numbers, exactly like the actions themselves.

Pure Python (no numpy): ``legal_mask`` returns a ``list[bool]``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine import actions as A
from engine.actions import Action

CODEC_VERSION: Final = 1


def _build_space() -> tuple[Action, ...]:
    space: list[Action] = [A.ROLL, A.END_TURN]
    space.extend(A.ROADS)
    space.extend(A.SETTLEMENTS)
    space.extend(A.CITIES)
    space.extend((A.BUY_DEV, A.KNIGHT, A.ROAD_BUILDING))
    space.extend(A.PLENTY[a][b] for a in range(5) for b in range(a, 5))
    space.extend(A.MONOPOLIES)
    space.extend(action for row in A.MARITIME for action in row)
    space.extend(A.DISCARDS)
    space.extend(action for row in A.ROBBER for action in row)
    space.extend(action for row in A.OFFERS_ONE_FOR_ONE for action in row)
    space.extend((A.ACCEPT, A.REJECT))
    space.extend(A.CONFIRMS)
    space.append(A.CANCEL)
    return tuple(space)


ACTIONS: Final[tuple[Action, ...]] = _build_space()
"""The action space: ``ACTIONS[i]`` is the action with index ``i``."""
ACTION_SPACE_SIZE: Final = len(ACTIONS)
INDEX: Final[dict[Action, int]] = {action: i for i, action in enumerate(ACTIONS)}
"""Action -> index (actions compare by value, so equal non-interned values work too)."""

#: First index of each block (see the module docstring).
BLOCKS: Final[dict[str, int]] = {
    "roll_dice": INDEX[A.ROLL],
    "end_turn": INDEX[A.END_TURN],
    "build_road": INDEX[A.ROADS[0]],
    "build_settlement": INDEX[A.SETTLEMENTS[0]],
    "build_city": INDEX[A.CITIES[0]],
    "buy_dev_card": INDEX[A.BUY_DEV],
    "play_knight": INDEX[A.KNIGHT],
    "play_road_building": INDEX[A.ROAD_BUILDING],
    "play_year_of_plenty": INDEX[A.PLENTY[0][0]],
    "play_monopoly": INDEX[A.MONOPOLIES[0]],
    "maritime_trade": INDEX[A.MARITIME[0][0]],
    "discard": INDEX[A.DISCARDS[0]],
    "move_robber": INDEX[A.ROBBER[0][0]],
    "propose_trade": INDEX[A.OFFERS_ONE_FOR_ONE[0][0]],
    "accept_trade": INDEX[A.ACCEPT],
    "reject_trade": INDEX[A.REJECT],
    "confirm_trade": INDEX[A.CONFIRMS[0]],
    "cancel_trade": INDEX[A.CANCEL],
}

if len(INDEX) != ACTION_SPACE_SIZE:  # pragma: no cover - a table gained a duplicate
    raise AssertionError("the action space contains equal actions twice")


def in_space(action: Action) -> bool:
    """Whether ``action`` has an index (counter-offers and larger offers do not)."""
    return action in INDEX


def encode(action: Action) -> int:
    """The index of ``action``; ``KeyError`` if it is not in the space."""
    try:
        return INDEX[action]
    except (KeyError, TypeError):
        raise KeyError(f"action {action} is not in the action space") from None


def decode(index: int) -> Action:
    """The action with ``index``; ``IndexError`` outside ``0..ACTION_SPACE_SIZE - 1``."""
    if isinstance(index, bool) or not 0 <= index < ACTION_SPACE_SIZE:
        raise IndexError(f"action index {index!r} outside 0..{ACTION_SPACE_SIZE - 1}")
    return ACTIONS[index]


def legal_indices(legal_actions: Iterable[Action]) -> list[int]:
    """Sorted indices of the legal actions that are in the space."""
    index = INDEX
    return sorted({index[a] for a in legal_actions if a in index})


def legal_mask(legal_actions: Iterable[Action]) -> list[bool]:
    """``mask[i]`` is True exactly when ``ACTIONS[i]`` is among ``legal_actions``."""
    mask = [False] * ACTION_SPACE_SIZE
    index = INDEX
    for action in legal_actions:
        i = index.get(action)
        if i is not None:
            mask[i] = True
    return mask
