"""Offline fit of the position value in :mod:`bots.builtin.search_value` (helpers only).

``python -m bots.builtin.search_value_fit --games 3000 --jobs 1`` plays self-play games
of the ``search`` bot's default policy, records every seat's value features at a few
positions of each game (at the start of a turn) and whether that seat won, fits a
logistic regression (:func:`bots.builtin.search_fit.fit_self_play`) and prints the constants to
paste in.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from bots.builtin.search_fit import Row, fit_self_play
from bots.builtin.search_policy import SearchPolicy
from bots.builtin.search_value import ABSOLUTE, NAMES, value_features
from engine import Game, Phase, RulesConfig
from engine.state import GameState

T = TypeVar("T")
POSITIONS = 6
"""Positions recorded per game (turn starts drawn at random)."""


def self_play_players(seed: int) -> list[SearchPolicy]:
    """The default policy in each of four seats, each with its own generator from ``seed``."""
    return [SearchPolicy(random.Random(seed * 7 + i)) for i in range(4)]


def turn_starts(
    seed: int, game_seed: int, chance: float, rng: random.Random, describe: Callable[[GameState], T]
) -> tuple[list[T], int | None]:
    """Play one self-play game of the default policy (its seats' generators from ``seed``):
    ``describe`` of the turn starts that ``rng`` picks (each with ``chance``) and the winner."""
    players = self_play_players(seed)
    game = Game.new(RulesConfig(), game_seed)
    seen: list[T] = []
    while not game.is_over:
        seat = game.decider
        if game.phase is Phase.ROLL and rng.random() < chance:
            seen.append(describe(game.state))
        game.apply_unchecked(players[seat].act(game.observe(seat)))
    outcome = game.outcome
    return seen, None if outcome is None else outcome.winner


def play(seed: int) -> list[Row]:
    """One self-play game: each recorded position's per-seat features and outcome."""
    rng = random.Random(seed)
    positions, winner = turn_starts(seed, seed + 2_000_000, 0.08, rng, value_features)
    if winner is None or not positions:
        return []
    chosen = rng.sample(positions, min(POSITIONS, len(positions)))
    return [(f, int(p == winner)) for row in chosen for p, f in enumerate(row)]


def main() -> None:
    fit_self_play(play, [*NAMES, *ABSOLUTE], default_games=3000, jobs=1)


if __name__ == "__main__":
    main()
