"""``catan-arena play --from FILE [--step N]``: a starting position from a replay file
(the site's "continue from here" download is a replay cut at its step), and the games
that continue from it, each with its own chance after the position."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from engine.errors import EngineError, ReplayError
from engine.game import Game
from engine.observation import outcome_to_json
from engine.replay import Replay, state_at
from engine.rng import new_seed


class PositionError(Exception):
    """The position cannot be played on; the message says why."""


@dataclasses.dataclass(frozen=True)
class Position:
    replay: Replay
    step: int
    seed_known: bool
    """False when the file withholds its seed (the site does while a game sharing it is
    still to be played): every continuation then draws fresh chance."""

    def game(self, seed: int | str) -> Game:
        """The position, its chance from here on drawn from ``seed``. With the recorded
        seed the steps are replayed from the seed alone, so the chance streams stand
        exactly where the recorded game had them (the same dice and cards follow the
        same decisions); with another, the recorded dice and cards are forced and the
        new seed's streams start afresh."""
        if seed == self.replay.seed and self.seed_known:
            return replay_from_seed(self.replay, self.step)
        return state_at(dataclasses.replace(self.replay, seed=seed), self.step)

    def seeds(self, games: int, seed: int | None, reseed: bool) -> list[int | str]:
        """Game i's seed: ``seed + i`` when given; else the original seed first (the same
        luck as the recorded game, while the seed is known and ``reseed`` is off), then
        fresh 128-bit seeds."""
        if seed is not None:
            return [seed + i for i in range(games)]
        fresh: list[int | str] = [new_seed() for _ in range(games)]
        if self.seed_known and not reseed:
            fresh[0] = self.replay.seed
        return fresh


def replay_from_seed(replay: Replay, step: int) -> Game:
    """The game after ``step`` recorded decisions, every chance drawn from the seed (as
    :func:`engine.replay.verify` does); :class:`PositionError` if a drawn outcome is not
    the recorded one (the file's seed is not its game's)."""
    game = Game.new(replay.config, replay.seed, replay.layout)
    for k, recorded in enumerate(replay.steps[:step]):
        outcome = game.apply(recorded.action)
        if outcome_to_json(recorded.action, outcome) != recorded.outcome:
            raise PositionError(f"step {k}: the seed does not give the recorded outcome")
    return game


def load_position(path: str, step: int | None) -> Position:
    """The position after ``step`` steps of the replay in ``path`` (all of them when
    None); :class:`PositionError` for a missing or broken file, a step out of range or a
    finished game."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise PositionError(f"--from {path}: cannot read it ({exc})") from None
    known = not (isinstance(data, dict) and data.get("seed") is None)
    if not known:
        data["seed"] = new_seed()  # withheld: parse with a stand-in, chance is fresh
    try:
        replay = Replay.from_dict(data)
    except ReplayError as exc:
        raise PositionError(f"--from {path}: {exc}") from None
    total = len(replay.steps)
    step = total if step is None else step
    if not 0 <= step <= total:
        raise PositionError(f"--step {step}: the file has steps 0 to {total}")
    try:
        game = replay_from_seed(replay, step) if known else state_at(replay, step)
    except (ReplayError, EngineError) as exc:
        raise PositionError(f"--from {path}: {exc}") from None
    if game.is_over:
        raise PositionError(f"the game is over after step {step}: choose an earlier step")
    return Position(replay, step, known)
