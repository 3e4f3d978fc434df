"""catanatron's ``ValueFunctionPlayer`` (greedy on its hand-tuned value function) as one
of our bots, through the bridge (``player.py``). Run only by the throwaway venv's python."""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from catanatron.models.player import Color
from catanatron.players.value import ValueFunctionPlayer
from player import BridgePlayer


class ValueFunction(BridgePlayer):
    name = "catanatron-value-function"

    def make(self) -> Any:
        return ValueFunctionPlayer(Color.RED)
