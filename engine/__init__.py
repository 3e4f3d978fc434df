"""Catan Arena's rules engine: the 5th-edition base game on a networkx board graph.

Pure Python (standard library plus networkx), deterministic from a seed, typed.
"""

from __future__ import annotations

from engine.actions import Action, action_from_dict, parse_action
from engine.board.layouts import BoardLayout
from engine.config import BoardSetup, RulesConfig
from engine.errors import (
    ConfigError,
    EngineError,
    IllegalActionError,
    InvalidActionError,
    ReplayError,
)
from engine.observation import Clock, Observation
from engine.outcome import Outcome
from engine.phases import Phase, Termination
from engine.static_typing import TYPE_CHECKING
from engine.types import DevCard, Resource, Terrain

if TYPE_CHECKING:
    from typing import Any

    from engine.game import Game

__version__ = "0.2.0"

__all__ = [
    "Action",
    "BoardLayout",
    "BoardSetup",
    "Clock",
    "ConfigError",
    "DevCard",
    "EngineError",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Observation",
    "Outcome",
    "Phase",
    "ReplayError",
    "Resource",
    "RulesConfig",
    "Termination",
    "Terrain",
    "__version__",
    "action_from_dict",
    "parse_action",
]


def __getattr__(name: str) -> Any:
    """``Game`` is imported on first use: a bot process, which only reads observations,
    starts without importing ``engine.game`` and ``engine.rules`` (7-9 ms of the bot
    runtime's 50-64 ms import by ``-X importtime`` on a slow day)."""
    if name == "Game":
        from engine.game import Game

        return Game
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
