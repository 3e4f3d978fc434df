"""The :class:`Player` interface: one required method, :meth:`Player.act`."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from engine import Action, Observation, Outcome
from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import ClassVar


class Player(ABC):
    """A bot. It sees only observations (never the game) and returns legal actions.

    ``rng`` is a seeded generator the platform hands in: use it (not the global
    ``random``) so that games reproduce.
    """

    name: ClassVar[str] = ""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def on_game_start(self, seat: int, observation: Observation) -> None:  # noqa: B027
        """Called once before the first decision (optional)."""

    @abstractmethod
    def act(self, observation: Observation) -> Action:
        """Return one of ``observation.legal_actions`` (or another legal trade offer)."""

    def on_game_end(self, observation: Observation, outcome: Outcome) -> None:  # noqa: B027
        """Called once when the game is over (optional)."""
