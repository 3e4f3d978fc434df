"""The start message a bot receives carries nothing that determines the game's secret:
its ``seed`` is the keyed per-seat bot seed, and no value anywhere in it, used as a game
seed, rebuilds the game's board or its dice."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arena_runner import InProcessDriver, play_match
from bots.builtin.random_bot import RandomPlayer
from bots.protocol import start_message
from engine import BoardLayout, Game, Observation, RulesConfig
from engine.observation_stream import ObservationEncoder
from engine.rng import bot_seed, game_secret, new_seed


class Recording(InProcessDriver):
    """A random player that keeps the start message the sandbox would have been sent."""

    def __init__(self) -> None:
        super().__init__(RandomPlayer, "recording")
        self.messages: list[dict[str, Any]] = []

    def start(
        self, seat: int, config: RulesConfig, layout: BoardLayout, seed: int, obs: Observation
    ) -> Any:
        data = ObservationEncoder().encode(obs)
        self.messages.append(
            start_message(seat, config.to_dict(), layout.to_dict(), seed, data, None)
        )
        return super().start(seat, config, layout, seed, obs)


def scalars(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from scalars(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from scalars(item)
    else:
        yield value


def test_no_value_in_the_start_message_rebuilds_the_game() -> None:
    config = RulesConfig(players=3, vp_to_win=4)
    seed = new_seed()
    drivers = [Recording() for _ in range(3)]
    result = play_match(config, seed, drivers, one_cpu=False)
    game = Game.new(config, seed)
    secret = game_secret(seed)
    for seat, driver in enumerate(drivers):
        (message,) = driver.messages
        assert message["seed"] == bot_seed(seed, seat) != seed
        for value in scalars(message):
            assert value != seed and value != secret and value != secret.hex()
            if isinstance(value, int | str) and not isinstance(value, bool):
                twin = Game.new(config, value)
                assert twin.layout != game.layout or value == seed
    assert result.replay.seed == seed  # the replay, published after the game, has it
