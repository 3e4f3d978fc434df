"""Golden playthroughs: whole seeded games rendered as text, checked in and diffed.

Regenerate after an intended rules change with ``python -m tests.support.golden``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from engine import Game, RulesConfig
from engine.board.layouts import BoardLayout
from engine.config import BoardSetup
from engine.observation import Observation, outcome_to_json
from engine.types import bag_str

DATA = Path(__file__).parents[1] / "engine" / "data" / "playthroughs"

GAMES: dict[str, tuple[RulesConfig, int]] = {
    "beginner-4p-trade": (RulesConfig(board=BoardSetup.BEGINNER), 11),
    "variable-4p-notrade": (RulesConfig(domestic_trade=False), 23),
    "random-numbers-3p-friendly": (
        RulesConfig(players=3, friendly_robber=True, board=BoardSetup.RANDOM_NUMBERS),
        37,
    ),
}


def _board_lines(layout: BoardLayout) -> list[str]:
    hexes = " ".join(
        f"{h}:{t.label}{n or ''}"
        for h, (t, n) in enumerate(zip(layout.terrains, layout.numbers, strict=True))
    )
    harbors = " ".join("3:1" if r is None else f"2:1{r.label}" for r in layout.harbors)
    return [f"board {hexes}", f"harbors {harbors}"]


def _seat_line(o: Observation) -> str:
    assert o.seat is not None and o.hand is not None and o.dev_cards is not None
    p = o.seat
    return (
        f"  seat {p}: {o.points()}vp hand {bag_str(o.hand)} devs {bag_str(o.dev_cards)} "
        f"knights {o.knights[p]} road {o.road_lengths[p]} "
        f"pieces {o.roads_left[p]}/{o.settlements_left[p]}/{o.cities_left[p]}"
    )


def render(config: RulesConfig, seed: int) -> str:
    """Play one game with seeded uniformly random players (offers rare) and render it."""
    game = Game.new(config, seed)
    rng = random.Random(seed)
    lines = [f"config {config.to_dict()} seed {seed}", *_board_lines(game.layout)]
    step = 0
    last_turn = -1
    while not game.is_over:
        state = game.state
        if state.turn != last_turn:
            last_turn = state.turn
            lines.append(f"turn {state.turn} seat {state.current} bank {bag_str(state.bank)}")
            lines.extend(_seat_line(game.observe(p)) for p in range(state.n))
        legal = game.legal_actions()
        plain = [a for a in legal if a.kind != "propose_trade"]
        pool = legal if len(plain) < len(legal) and rng.random() < 0.05 else plain
        action = pool[int(rng.random() * len(pool))]
        decider, phase = game.decider, game.phase.label
        outcome = game.apply(action)
        shown = outcome_to_json(action, outcome)
        lines.append(
            f"{step:05d} s{decider} {phase:<16} {action}"
            + ("" if shown is None else f" -> {shown}")
            + f"  | {len(legal)}: {' '.join(map(str, legal))}"
        )
        step += 1
    assert game.outcome is not None
    lines.append(f"result {game.outcome.to_dict()}")
    return "\n".join(lines) + "\n"


def regenerate() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for name, (config, seed) in GAMES.items():
        (DATA / f"{name}.txt").write_text(render(config, seed))
        print(f"wrote {name}.txt", file=sys.stderr)


if __name__ == "__main__":
    regenerate()
