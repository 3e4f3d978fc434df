"""Spend or end the turn: off-policy positions for the value fits, and the check that a
position value prefers spending where the default policy spends (helpers only).

A value fitted on the default policy's own turn starts rarely sees a seat that ended its
turn holding the cards of a city it could have built: the policy builds. Such a value
can rate the cards above the city (a fit rewards cards in hand, which go with high
production), so a search that compares whole turns by it would keep cards the policy
spends. :func:`branches` plays, from some of a self-play game's turns where the policy
spends right after the roll, the other branch: the seat ends its turn at once and every
seat plays on to the end; the turn start that follows and its winner are a position of
that game for the fit. :func:`spending_checks` plays both branches of such turns (the
policy's whole turn, or the turn ended at once) and lists, for each, the seat, what the
policy spent on first and the two turn starts, for a value to be judged on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple, TypeVar

from bots.builtin.search_value_fit import self_play_players
from bots.player import Player
from engine import Game, Phase, RulesConfig
from engine import actions as A
from engine.state import GameState

T = TypeVar("T")
SPENDING: Final = (A.BuildCity, A.BuildSettlement, A.BuildRoad, A.BuyDevCard)
"""First moves of a turn that spend cards (the branch point)."""
MAX_STEPS: Final = 3000
"""Steps a branch plays at most (a guard: a self-play game ends long before)."""


class SpendingCheck(NamedTuple):
    seat: int
    spent_on: str
    """The kind of the policy's first move (``BuildCity``, ...)."""
    spent: GameState
    """The next turn start after the policy played the turn."""
    ended: GameState
    """The next turn start after the seat ended the turn at once."""


def _spending_turns(game_seed: int, seed: int, count: int) -> list[tuple[Game, type]]:
    """A self-play game of the default policy: up to ``count`` copies of it (drawn at
    random, reservoir style) at the first decision after a roll of a turn the policy
    begins by spending, each with the kind of that first move."""
    rng = random.Random(seed)
    players = self_play_players(seed)
    game = Game.new(RulesConfig(), game_seed)
    kept: list[tuple[Game, type]] = []
    seen = 0
    after_roll = False
    while not game.is_over:
        seat = game.decider
        action = players[seat].act(game.observe(seat))
        if after_roll and game.phase is Phase.MAIN and isinstance(action, SPENDING):
            seen += 1
            if len(kept) < count:
                kept.append((game.copy(), type(action)))
            elif (slot := rng.randrange(seen)) < count:
                kept[slot] = (game.copy(), type(action))
        after_roll = game.phase is Phase.ROLL
        game.apply_unchecked(action)
    return kept


def _end_turn(game: Game) -> Game:
    """``game`` with the seat on turn ending it at once (a copy)."""
    ended = game.copy()
    ended.apply_unchecked(next(a for a in ended.legal_actions() if isinstance(a, A.EndTurn)))
    return ended


def play_on(game: Game, players: Sequence[Player], *, turn_only: bool = False) -> Game:
    """Play ``game`` on with the default policy: to the end, or to the next turn start."""
    turn = game.state.turn
    for _ in range(MAX_STEPS):
        if game.is_over or (turn_only and game.state.turn != turn):
            break
        seat = game.decider
        game.apply_unchecked(players[seat].act(game.observe(seat)))
    return game


def branches(
    seed: int, game_seed: int, count: int, describe: Callable[[GameState], T]
) -> list[tuple[T, int]]:
    """``describe`` of the turn start after each ended-at-once branch of up to ``count``
    spending turns of one self-play game, with the branch's winner."""
    out: list[tuple[T, int]] = []
    for i, (game, _) in enumerate(_spending_turns(game_seed, seed, count)):
        ended = _end_turn(game)
        described = describe(ended.state.copy())
        finished = play_on(ended, self_play_players(seed * 31 + i + 1))
        outcome = finished.outcome
        if outcome is not None and outcome.winner is not None:
            out.append((described, outcome.winner))
    return out


def spending_checks(seed: int, count: int) -> list[SpendingCheck]:
    """Both branches of up to ``count`` spending turns of one self-play game."""
    checks = []
    for game, kind in _spending_turns(seed + 9_000_000, seed, count):
        seat = game.decider
        spent = play_on(game.copy(), self_play_players(seed * 31 + 1), turn_only=True)
        if spent.is_over:  # the turn won the game: no turn start follows
            continue
        checks.append(SpendingCheck(seat, kind.__name__, spent.state, _end_turn(game).state))
    return checks
