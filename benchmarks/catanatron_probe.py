"""Time full 4-player catanatron games with its own RandomPlayer.

Benchmark opponent only: run this with the python of the throwaway virtualenv
that ``vs_catanatron.py`` creates (catanatron is never a dependency of the
product). Prints one JSON line:
``{"engine", "version", "games", "seconds", "decisions", "finished"}``.

Decisions are the number of ``Game.play_tick`` plies, i.e. the length of the
game's action log (``game.state.actions`` in catanatron 3.x,
``game.state.action_records`` in later releases). Forced single-option plies
(e.g. a lone ROLL) count too, as catanatron asks the player for them.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import time
from importlib.metadata import version
from typing import Any

from catanatron import Color, Game, RandomPlayer


def _count_decisions(game: Any) -> int:
    """Return how many actions were played in a finished game."""
    state = game.state
    for attr in ("actions", "action_records"):
        log = getattr(state, attr, None)
        if log is not None:
            return len(log)
    raise AttributeError("catanatron State has neither 'actions' nor 'action_records'")


def run(games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` seeded games of 4 RandomPlayers and return the JSON record."""
    accepts_seed = "seed" in inspect.signature(Game.__init__).parameters
    decisions = 0
    finished = 0
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        # Game() does `random.seed(seed or randrange(...))`, so seed 0 would be
        # random: pre-seeding the global RNG keeps every game reproducible.
        random.seed(game_seed)
        players = [RandomPlayer(color) for color in Color]
        game = Game(players, seed=game_seed) if accepts_seed else Game(players)
        winner = game.play()
        decisions += _count_decisions(game)
        finished += winner is not None
    seconds = time.perf_counter() - start
    return {
        "engine": "catanatron",
        "version": version("catanatron"),
        "games": games,
        "seconds": seconds,
        "decisions": decisions,
        "finished": finished,
    }


def main(argv: list[str] | None = None) -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of game 0")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    result = run(args.games, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        rate = result["games"] / result["seconds"] if result["seconds"] else 0.0
        print(
            f"catanatron {result['version']}: {result['games']} games in "
            f"{result['seconds']:.3f} s ({rate:.2f} games/s), "
            f"{result['decisions']} decisions, {result['finished']} finished"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
