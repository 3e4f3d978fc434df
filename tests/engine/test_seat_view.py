"""In-process players see exactly what a sandboxed bot decodes: nothing reachable from
their observation leads to the game's state or its unmasked step log."""

from __future__ import annotations

import gc
import random
import types
from typing import Any

from arena_runner.drivers import InProcessDriver
from bots.local import play_local_game
from bots.player import Player
from engine import Clock, Game, Observation, RulesConfig
from engine import actions as A
from engine.seat_view import SeatView

_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)


def reachable_ids(root: object, limit: int = 200_000) -> set[int]:
    """Ids of every object reachable from ``root`` through references (classes, modules
    and functions are not followed: they lead to global, not per-game, state)."""
    seen: set[int] = set()
    stack: list[Any] = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _OPAQUE):
            continue
        seen.add(id(obj))
        if isinstance(obj, Observation):
            stack.extend(getattr(obj, name) for name in Observation.__slots__)
        stack.extend(gc.get_referents(obj))
    return seen


def _play_some(game: Game, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def _hidden_steps(game: Game, seat: int) -> list[int]:
    """Steps whose outcome ``seat`` may not see (others' cards bought, others' steals)."""
    return [
        i
        for i, (who, action, outcome) in enumerate(game.state.steps)
        if outcome is not None
        and (
            (isinstance(action, A.BuyDevCard) and who != seat)
            or (isinstance(action, A.MoveRobber) and seat not in (who, action.victim))
        )
    ]


def test_the_engine_view_reaches_the_live_log_negative_control() -> None:
    game = Game.new(RulesConfig(), 3)
    _play_some(game, 300, random.Random(3))
    ids = reachable_ids(game.observe(0))
    assert id(game.state.steps) in ids  # the walk finds the leak when it is there


def test_the_seat_view_reaches_nothing_of_the_game() -> None:
    game = Game.new(RulesConfig(), 3)
    rng = random.Random(3)
    view = SeatView(game.config, game.layout)
    for _ in range(40):
        _play_some(game, 40, rng)
        seen = view(game.observe(1))
        ids = reachable_ids(seen)
        assert id(game.state) not in ids and id(game.state.steps) not in ids
        assert not any(id(step) in ids for step in game.state.steps)
    hidden = _hidden_steps(game, 1)
    assert hidden, "the test game should contain hidden outcomes"
    history = seen.history
    assert all(history[i][2] is None for i in hidden)
    assert len(history) == len(game.state.steps)


class Snoop(Player):
    """Records every observation object it is given."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.seen: list[Observation] = []

    def on_game_start(self, seat: int, observation: Observation) -> None:
        self.seen.append(observation)

    def act(self, observation: Observation) -> A.Action:
        self.seen.append(observation)
        return self.rng.choice(observation.legal_actions)


def test_the_local_loop_gives_players_the_seat_view() -> None:
    players = [Snoop(random.Random(s)) for s in range(3)]
    result = play_local_game(RulesConfig(players=3, vp_to_win=6), 11, players)
    steps = result.game.state.steps
    for seat, player in enumerate(players):
        last = player.seen[-1]
        assert last._steps is not steps
        hidden = _hidden_steps(result.game, seat)
        assert all(last.history[i][2] is None for i in hidden if i < len(last.history))


def test_the_in_process_driver_gives_the_player_the_seat_view() -> None:
    game = Game.new(RulesConfig(), 4)
    snoop = Snoop(random.Random(0))
    driver = InProcessDriver(lambda rng: snoop)
    assert driver.start(0, game.config, game.layout, 1, game.observe(0, with_legal=False)) is None
    rng = random.Random(4)
    for _ in range(600):
        if game.decider == 0:
            action = driver.act(game.observe(0), Clock(1.0, 0.0))
            assert isinstance(action, A.Action)
            game.apply(action)
        else:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.is_over:
            break
    assert all(o._steps is not game.state.steps for o in snoop.seen)
    ids = reachable_ids(snoop.seen[-1])
    assert id(game.state) not in ids and id(game.state.steps) not in ids
