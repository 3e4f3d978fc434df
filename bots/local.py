"""Play one game locally with in-process players (trusted bots, local experiments)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from bots.player import Player
from engine import Game, Outcome, RulesConfig
from engine.rng import Seed, bot_seed
from engine.seat_view import SeatView


@dataclass
class SeatTiming:
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0


@dataclass
class LocalResult:
    game: Game
    outcome: Outcome
    timings: list[SeatTiming] = field(default_factory=list)


def play_local_game(config: RulesConfig, seed: Seed, players: list[Player]) -> LocalResult:
    """Play a whole game; each seat's player decides from its own observation only, as
    its sandboxed bot process would decode it (:class:`~engine.seat_view.SeatView`)."""
    game = Game.new(config, seed)
    timings = [SeatTiming() for _ in players]
    views = [SeatView(config, game.layout) for _ in players]
    for seat, player in enumerate(players):
        player.on_game_start(seat, views[seat](game.observe(seat, with_legal=False)))
    clock = time.perf_counter
    while not game.is_over:
        seat = game.decider
        observation = views[seat](game.observe(seat))
        start = clock()
        action = players[seat].act(observation)
        spent = clock() - start
        timing = timings[seat]
        timing.decisions += 1
        timing.seconds += spent
        timing.slowest = max(timing.slowest, spent)
        game.apply(action)
    outcome = game.outcome
    assert outcome is not None
    for seat, player in enumerate(players):
        player.on_game_end(views[seat](game.observe(seat, with_legal=False)), outcome)
    return LocalResult(game, outcome, timings)


def seeded_rng(seed: Seed, seat: int) -> random.Random:
    """The generator handed to the player in ``seat`` of game ``seed``."""
    return random.Random(bot_seed(seed, seat))
