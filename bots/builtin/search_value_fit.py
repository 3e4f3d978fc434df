"""Offline fit of the position value in :mod:`bots.builtin.search_value` (helpers only).

``python -m bots.builtin.search_value_fit --games 3000 --jobs 1`` plays self-play games
of the ``search`` bot's default policy, records every seat's value features at a few
positions of each game (at the start of a turn) and whether that seat won, fits a
logistic regression (:func:`bots.builtin.search_fit.fit_self_play`) and prints the constants to
paste in.
"""

from __future__ import annotations

import random

from bots.builtin.search_fit import Row, fit_self_play
from bots.builtin.search_policy import SearchPolicy
from bots.builtin.search_value import ABSOLUTE, NAMES, value_features
from engine import Game, Phase, RulesConfig

POSITIONS = 6
"""Positions recorded per game (turn starts drawn at random)."""


def play(seed: int) -> list[Row]:
    """One self-play game: each recorded position's per-seat features and outcome."""
    rng = random.Random(seed)
    players = [SearchPolicy(random.Random(seed * 7 + i)) for i in range(4)]
    game = Game.new(RulesConfig(), seed + 2_000_000)
    positions: list[list[list[float]]] = []
    while not game.is_over:
        seat = game.decider
        if game.phase is Phase.ROLL and rng.random() < 0.08:
            positions.append(value_features(game.state))
        game.apply_unchecked(players[seat].act(game.observe(seat)))
    outcome = game.outcome
    if outcome is None or outcome.winner is None or not positions:
        return []
    chosen = rng.sample(positions, min(POSITIONS, len(positions)))
    return [(f, int(p == outcome.winner)) for row in chosen for p, f in enumerate(row)]


def main() -> None:
    fit_self_play(play, [*NAMES, *ABSOLUTE], default_games=3000, jobs=1)


if __name__ == "__main__":
    main()
