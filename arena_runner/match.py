"""Play one game between seat drivers, turning every bot failure into a recorded fault
and a safe default action so that the game always finishes."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from arena_runner.defaults import safe_default
from arena_runner.drivers import SeatDriver
from arena_runner.result import Fault, FaultKind, MatchResult, SeatStats
from engine import Action, Clock, EngineError, Game, RulesConfig
from engine.replay import record

DEFAULT_DECISION_TIMEOUT = 5.0


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the ``random.Random`` handed to the bot in ``seat`` of game ``seed``
    (the same as ``bots.local.seeded_rng``)."""
    return seed * 1_000_003 + seat


def play_match(
    config: RulesConfig,
    seed: int,
    drivers: Sequence[SeatDriver],
    *,
    decision_timeout: float = DEFAULT_DECISION_TIMEOUT,
    time_bank: float = 0.0,
    seat_names: Sequence[str] | None = None,
) -> MatchResult:
    """Play the game ``seed`` with ``drivers[s]`` in seat ``s``.

    Each seat sees only its own observations. A decision may take ``decision_timeout``
    seconds plus whatever is left of the seat's ``time_bank``. Faults (see
    :class:`FaultKind`) are recorded and replaced by :func:`safe_default`; a seat whose
    bot failed to start or whose process died gets safe defaults for the rest of the game.
    The drivers are left open (the caller closes them).
    """
    n = config.players
    if len(drivers) != n:
        raise ValueError(f"{n} players need {n} drivers, got {len(drivers)}")
    game = Game.new(config, seed)
    rng = random.Random(f"safe-default/{seed}")
    faults: list[list[Fault]] = [[] for _ in range(n)]
    stats = [SeatStats() for _ in range(n)]
    banks = [time_bank] * n
    out = [False] * n
    for seat, driver in enumerate(drivers):
        observation = game.observe(seat, with_legal=False)
        fault = driver.start(seat, config, game.layout, bot_seed(seed, seat), observation)
        if fault is not None:
            faults[seat].append(fault)
            out[seat] = True

    while not game.is_over:
        seat = game.decider
        action: Action | None = None
        if not out[seat]:
            driver = drivers[seat]
            observation = game.observe(seat)
            began = time.perf_counter()
            reply = driver.act(observation, Clock(decision_timeout, banks[seat]))
            spent = time.perf_counter() - began
            stats[seat].add(spent)
            banks[seat] = max(0.0, banks[seat] - max(0.0, spent - decision_timeout))
            if isinstance(reply, Fault):
                faults[seat].append(reply)
                out[seat] = not driver.alive
            else:
                try:
                    game.check(reply)
                    action = reply
                except EngineError as exc:
                    step = len(game.state.steps)
                    faults[seat].append(Fault(seat, step, FaultKind.ILLEGAL, str(exc)))
        if action is None:
            action = safe_default(game.legal_actions(), rng)
            stats[seat].defaults += 1
        game.apply_unchecked(action)

    outcome = game.outcome
    assert outcome is not None
    for seat, driver in enumerate(drivers):
        if not out[seat] and driver.alive:
            fault = driver.end(game.observe(seat, with_legal=False), outcome)
            if fault is not None:
                faults[seat].append(fault)
    names = list(seat_names) if seat_names is not None else [d.name for d in drivers]
    seats = tuple({"seat": s, "name": names[s]} for s in range(n))
    flat = [f.to_dict() for seat_faults in faults for f in seat_faults]
    replay = record(game, seats, **({"faults": flat} if flat else {}))
    return MatchResult(replay, outcome, faults, stats, [d.take_log() for d in drivers])
