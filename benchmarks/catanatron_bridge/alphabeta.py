"""catanatron's ``AlphaBetaPlayer`` (depth 2, expected value over chance) as one of our
bots, through the bridge (``player.py``). Run only by the throwaway venv's python."""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from catanatron.models.player import Color
from catanatron.players import minimax
from player import BridgePlayer


class AlphaBeta(BridgePlayer):
    name = "catanatron-alphabeta"

    def make(self) -> Any:
        return minimax.AlphaBetaPlayer(Color.RED)

    def set_deadline(self, seconds: float) -> None:
        minimax.MAX_SEARCH_TIME_SECS = seconds  # read by AlphaBetaPlayer.decide
