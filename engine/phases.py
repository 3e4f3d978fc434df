"""Which kind of decision the game is waiting for."""

from __future__ import annotations

from enum import IntEnum

from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Final


class Phase(IntEnum):
    SETUP_SETTLEMENT = 0
    SETUP_ROAD = 1
    ROLL = 2
    """Start of a turn: roll the dice (or play a development card first)."""
    DISCARD = 3
    """After a 7: a player with too many cards discards one card at a time."""
    MOVE_ROBBER = 4
    MAIN = 5
    """After the roll: trade, build, buy and play development cards, end the turn."""
    ROAD_BUILDING = 6
    """Placing the free roads of a Road Building card."""
    TRADE_RESPONSE = 7
    """A player not on turn answers a domestic trade offer."""
    TRADE_CONFIRM = 8
    """The proposer picks one accepting/countering player, or cancels."""
    GAME_OVER = 9

    @property
    def label(self) -> str:
        return self.name.lower()


# The members as module constants for the hot paths: ``Phase.MAIN`` is read through the
# enum metaclass's attribute hook, several times slower than a global name.
SETUP_SETTLEMENT: Final = Phase.SETUP_SETTLEMENT
SETUP_ROAD: Final = Phase.SETUP_ROAD
ROLL: Final = Phase.ROLL
DISCARD: Final = Phase.DISCARD
MOVE_ROBBER: Final = Phase.MOVE_ROBBER
MAIN: Final = Phase.MAIN
ROAD_BUILDING: Final = Phase.ROAD_BUILDING
TRADE_RESPONSE: Final = Phase.TRADE_RESPONSE
TRADE_CONFIRM: Final = Phase.TRADE_CONFIRM
GAME_OVER: Final = Phase.GAME_OVER


class Termination(IntEnum):
    VICTORY = 0
    TURN_LIMIT = 1
    """Truncated at the turn cap; not a win, players are ranked by points."""

    @property
    def label(self) -> str:
        return self.name.lower()
