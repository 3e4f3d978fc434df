"""Measurement only, an upper bound: ``search`` at horizon 4 (as ``horizon4.py``) whose
sampled games hold the opponents' TRUE hidden cards. It reads them from the harness's own
game through the call stack, so it runs only under ``benchmarks/paired_inprocess.py``
(never as a bot: it would fail in any other process). Dice, steals and draws stay
sampled: only what is in the hands is known.

It measures what better inference of the hidden hands could buy. Determinization deals
the opponents' hidden cards uniformly from the cards unaccounted for
(:func:`engine.determinize.determinize`); it does not track them through the public
history, although most resource cards can be tracked: what each roll pays is public
(the board and the dice), and so are trades, builds, discards, monopolies and Year of
Plenty. Only a steal between two other seats hides a card's kind.

Seeds 720000-720299, 24 samples a decision (``benchmarks/paired_inprocess.py``, against
three heuristics), each against ``horizon4.py``'s 174/300 = 58.0% on the same games:

- resource and development cards both true (``ORACLE = ORACLE_ALL``): **204/300 = 68.0%**,
  paired +10.0 points (95% interval ±6.0), the largest effect any lever has measured;
- resource cards alone (``ORACLE = ORACLE_RESOURCES``, the default): **194/300 = 64.7%**,
  paired +6.7 points (±6.2).

So a tracker of the opponents' resource cards through the public history could buy up
to ~7 points at the 1 s clock's horizon (less what steals hide), and their development
cards ~3 more: the next lever for issue 22's 1 s goal.

That tracker landed (:mod:`engine.hand_tracker`): ``horizon4.py`` with it won 196/300 =
65.3% on the same games (``uniform_hands.py`` is the old dealing), as much as the true
resource cards gave here.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any, Final

import bots.builtin.search as search
import bots.builtin.search_rollout as rollout
import bots.builtin.search_trade as trade
from engine import Game
from engine.state import GameState

search.HORIZONS = ((math.inf, 4),)  # type: ignore[misc, assignment]  # a Final, patched

ORACLE_RESOURCES: Final = ("hands",)
ORACLE_ALL: Final = ("hands", "devs", "deck")
ORACLE = ORACLE_RESOURCES
"""The hidden parts of each sample made true."""


def _true_state() -> GameState:
    """The harness's game state (``paired_inprocess.play``'s ``game``)."""
    frame = sys._getframe()
    while frame is not None:
        game = frame.f_locals.get("game") if frame.f_code.co_name == "play" else None
        if isinstance(game, Game):
            return game.state
        frame = frame.f_back  # type: ignore[assignment]
    raise RuntimeError("oracle_hands runs only under benchmarks/paired_inprocess.py")


def _oracle(make: Callable[..., Game]) -> Callable[..., Game]:
    def made_true(*args: Any, **kwargs: Any) -> Game:
        game = make(*args, **kwargs)
        true, sample = _true_state(), game.state
        for name in ORACLE:
            setattr(
                sample, name, [list(x) if isinstance(x, list) else x for x in getattr(true, name)]
            )
        sample.public_view = None
        return game

    return made_true


for module, name in ((rollout, "determinize"), (rollout, "redeal"), (trade, "determinize")):
    vars(module)[name] = _oracle(vars(module)[name])


class OracleHandsPlayer(search.SearchPlayer):
    name = "search, horizon 4, true hidden cards"
