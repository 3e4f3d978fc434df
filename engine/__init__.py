"""Catan Arena's rules engine: the 5th-edition base game on a networkx board graph.

Pure Python (standard library plus networkx), deterministic from a seed, typed.
"""

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
from engine.game import Game, Outcome
from engine.observation import Clock, Observation
from engine.phases import Phase, Termination
from engine.types import DevCard, Resource, Terrain

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
