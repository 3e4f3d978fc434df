"""The Player SDK bot authors code against, and the built-in bots."""

from bots.player import Player
from engine import Action, Observation, Outcome

__all__ = ["Action", "Observation", "Outcome", "Player"]
