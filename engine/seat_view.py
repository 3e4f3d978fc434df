"""One seat's observations exactly as its sandboxed bot would see them, for in-process
players (the local loop, trusted drivers, the autopilot, the Gym environment).

:meth:`Game.observe` is the engine's own view: its history is a window on the game's
live, unmasked step log, fine for trusted engine code but not for a player. A
:class:`SeatView` passes each observation through the bot protocol's stream codec
(:mod:`engine.observation_stream`), so the player gets a rebuilt :class:`Observation`
holding only what went over the wire: its own cards, the public state, and the history
with chance outcomes masked for that seat — nothing that references the game's state.
"""

from __future__ import annotations

from engine.board.layouts import BoardLayout
from engine.config import RulesConfig
from engine.observation import Observation
from engine.observation_stream import ObservationDecoder, ObservationEncoder


class SeatView:
    """Observations of one seat in one game, rebuilt as its bot process would decode
    them (make a new one for each game)."""

    __slots__ = ("_decoder", "_encoder")

    def __init__(self, config: RulesConfig, board: BoardLayout) -> None:
        self._encoder = ObservationEncoder()
        self._decoder = ObservationDecoder(config, board)

    def __call__(self, observation: Observation) -> Observation:
        """The seat's copy of ``observation`` (the next one of this seat's stream)."""
        return self._decoder.decode(self._encoder.encode(observation))
