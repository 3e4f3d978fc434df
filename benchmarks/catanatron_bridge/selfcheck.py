"""The bridge checked against our engine, in the throwaway venv (``python selfcheck.py``).

1. The map: for ``--layouts`` variable boards, catanatron's map built by the bridge agrees
   with ours node for node, path for path, tile for tile, harbor for harbor
   (``mirror.check``).
2. The mirror: over ``--games`` whole games (our engine the referee, the seats playing
   catanatron's ``ValueFunctionPlayer`` through the bridge or a random legal action), at
   every decision catanatron's playable actions, mapped to ours, are compared with our
   legal actions (domestic trade offers aside); each difference is counted by phase and
   kind, with an example. Prints one JSON line last.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from catanatron.models.player import Color
from catanatron.players.value import ValueFunctionPlayer
from mirror import board_map, mirror, to_ours

from engine import Game, Phase, RulesConfig
from engine import actions as A
from engine.determinize import determinize


def check_maps(layouts: int) -> int:
    for seed in range(layouts):
        board_map(Game.new(RulesConfig(), f"map-{seed}").layout)  # raises on a mismatch
    return layouts


def compare(games: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    differences: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    decisions = 0
    for g in range(games):
        game = Game.new(RulesConfig(), f"selfcheck-{seed}-{g}")
        while not game.is_over:
            obs = game.observe(game.decider)
            legal = obs.legal_actions
            if obs.phase in (Phase.TRADE_RESPONSE, Phase.TRADE_CONFIRM):
                game.apply(A.REJECT if A.REJECT in legal else A.CANCEL)
                continue
            player = ValueFunctionPlayer(Color.RED)
            theirs = mirror(obs, determinize(obs, rng).state, player, rng.getrandbits(31))
            mapped = board_map(obs.board)
            offered = {to_ours(a, mapped) for a in theirs.playable_actions}
            ours = {a for a in legal if not isinstance(a, A.ProposeTrade)}
            decisions += 1
            for side, extra in (("catanatron only", offered - ours), ("ours only", ours - offered)):
                for kind in sorted({type(a).__name__ for a in extra}):
                    key = f"{obs.phase.name}: {side}: {kind}"
                    differences[key] += 1
                    examples.setdefault(key, f"{sorted(map(str, extra))[:3]} at step "
                                        f"{len(obs.history)} of game {g}")  # fmt: skip
            choice = to_ours(player.decide(theirs, theirs.playable_actions), mapped)
            if choice not in legal or rng.random() < 0.3:
                choice = rng.choice(legal)
            game.apply(choice)
    return {
        "decisions": decisions,
        "differences": dict(differences.most_common()),
        "examples": examples,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", type=int, default=200)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    maps = check_maps(args.layouts)
    print(f"{maps} layouts: catanatron's map agrees with ours", file=sys.stderr)
    result = compare(args.games, args.seed)
    for key, count in result["differences"].items():  # type: ignore[attr-defined]
        print(f"{count:5d}  {key}  e.g. {result['examples'][key]}", file=sys.stderr)  # type: ignore[index]
    print(json.dumps({"layouts": maps, **result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
