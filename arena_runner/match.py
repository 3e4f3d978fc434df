"""Play one game between seat drivers: bots not on turn are frozen, CPU time is charged
to per-decision budgets and a per-game bank, every bot failure becomes a recorded fault
(a strike) with a safe default action, and a seat with too many strikes, an empty bank
or a dead process is forfeited to a trusted autopilot so the game always finishes."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Sequence

from arena_runner.affinity import claimed_cpu
from arena_runner.clock_limits import PLAY_DECISION_SECONDS, game_budget
from arena_runner.defaults import safe_default
from arena_runner.drivers import PlayerFactory, SeatDriver
from arena_runner.result import Fault, FaultKind, MatchResult, placings_with_forfeits
from arena_runner.sandbox.limits import Limits
from arena_runner.seats import DEFAULT_MAX_STRIKES, Seat
from arena_runner.subprocess_driver import seat_overhead_seconds
from engine import Action, Clock, EngineError, Game, Phase, RulesConfig
from engine.replay import record
from engine.rng import Seed, bot_seed

IN_PROCESS = "in-process"


def worst_case_seconds(players: int, game_seconds: float, limits: Limits | None = None) -> float:
    """The longest the bots of one game can make it last: every seat's start-up and end
    (:func:`~arena_runner.subprocess_driver.seat_overhead_seconds`, under the sandbox's
    ``limits``) plus its whole wall-clock budget for the game, ``game_seconds`` (each
    decision's wall clock is capped by what is left of it). The engine's and the
    autopilot's own work is not in it: a caller's time limit adds a margin for that."""
    return players * (seat_overhead_seconds(limits or Limits()) + game_seconds)


def default_autopilot() -> PlayerFactory:
    """The built-in ``heuristic`` player (trusted, runs in-process)."""
    from bots.registry import load_player_class

    return load_player_class("heuristic")


def play_match(
    config: RulesConfig,
    seed: Seed,
    drivers: Sequence[SeatDriver],
    *,
    decision_timeout: float = PLAY_DECISION_SECONDS,
    time_bank: float = 0.0,
    seat_names: Sequence[str] | None = None,
    max_strikes: int = DEFAULT_MAX_STRIKES,
    autopilot: PlayerFactory | None = None,
    ask_forced: bool = False,
    one_cpu: bool = True,
    game_seconds: float | None = None,
    on_step: Callable[[Game], None] | None = None,
    start: Game | None = None,
) -> MatchResult:
    """Play the game ``seed`` with ``drivers[s]`` in seat ``s``.

    Each seat sees only its own observations and a :class:`Clock`: ``decision_timeout``
    seconds of CPU per decision, overage taken from its ``time_bank`` (Kaggle's model);
    wall clock is charged like CPU beyond a small slack
    (:func:`~arena_runner.timeouts.decision_cost`), so one decision's wall clock is
    capped at ``decision + bank + slack``. A platform fault (the sandbox,
    not the bot) voids the match. The drivers are left open (the caller closes them).

    A decision with a single legal action (outside trade responses, where a counter-offer
    is always possible) is applied without asking the bot unless ``ask_forced``: the bot
    sees it in its history at its next decision. A driver with a true ``ask_forced``
    attribute (a person's seat: they roll the dice themselves) is asked every decision.

    Each seat may spend ``game_seconds`` of wall clock deciding in the game (default
    :func:`game_budget`); past it the seat is forfeited. It is also the CPU a bot process
    must still be allowed (RLIMIT_CPU) when the game starts. A driver with a
    ``game_seconds`` attribute of its own (a person's seat, :mod:`arena_runner.person`)
    has that budget instead.

    With ``one_cpu`` the match claims one CPU for this thread and every bot process
    (:mod:`arena_runner.affinity`): a decision's hand-over then stays on one core.

    ``on_step(game)`` is called after every applied action (the platform's live view:
    it must be quick and must not keep ``game``; it throttles its own writes).

    ``start``: play on from this position (its config and board; "continue from here")
    instead of a new game; the bots start with their observation of it, and the replay
    still holds every step from the first, the earlier ones not played by these bots.
    """
    n = config.players
    if len(drivers) != n:
        raise ValueError(f"{n} players need {n} drivers, got {len(drivers)}")
    claim = claimed_cpu() if one_cpu else contextlib.nullcontext()
    with claim as cpu:
        game = Game.new(config, seed) if start is None else start
        if game.config != config:
            raise ValueError("the starting position was played under other rules")
        rng = random.Random(f"safe-default/{seed}")
        budget = game_budget(decision_timeout, time_bank) if game_seconds is None else game_seconds
        seats = []
        for s, d in enumerate(drivers):
            own = getattr(d, "game_seconds", None)  # a person's seat has a budget of its own
            wall = budget if own is None else float(own)
            seats.append(Seat(s, d, time_bank, wall_left=wall, budget=wall))
        pilot_factory = autopilot or default_autopilot()

        def take_over(seat: Seat) -> None:
            observation = game.observe(seat.index, with_legal=False)
            seat.take_over(
                pilot_factory, config, game.layout, bot_seed(seed, seat.index), observation
            )

        for seat in seats:
            prepare = getattr(seat.driver, "prepare_game", None)
            if prepare is not None:
                prepare(budget)
            observation = game.observe(seat.index, with_legal=False)
            fault = seat.driver.start(
                seat.index, config, game.layout, bot_seed(seed, seat.index), observation
            )
            if fault is not None:
                seat.record(fault, max_strikes=1)
            elif cpu is not None:
                seat.driver.pin(cpu)

        current = -1
        while not game.is_over:
            if not ask_forced:
                legal = game.legal_actions()
                if (
                    len(legal) == 1
                    and game.phase is not Phase.TRADE_RESPONSE
                    and not getattr(drivers[game.decider], "ask_forced", False)
                ):
                    seats[game.decider].stats.forced += 1
                    game.apply_unchecked(legal[0])
                    if on_step is not None:
                        on_step(game)
                    continue
            seat = seats[game.decider]
            if seat.index != current and current >= 0:
                seats[current].driver.pause()
            current = seat.index
            action: Action | None = None
            if seat.playing:
                action = _decide(game, seat, decision_timeout, max_strikes)
            else:
                if seat.autopilot is None and not seat.stats.autopilot:
                    take_over(seat)
                action = seat.pilot_act(game.observe(seat.index), Clock(decision_timeout, 0.0))
                action = _checked(game, action)  # an autopilot is checked like any bot
            if action is None:
                action = safe_default(game.legal_actions(), rng)
                seat.stats.defaults += 1
            game.apply_unchecked(action)
            if on_step is not None:
                on_step(game)
        return _finish(game, seats, seat_names)


def _checked(game: Game, action: Action | None) -> Action | None:
    """``action`` if it is legal now, else None (then a safe default is played)."""
    if action is None:
        return None
    try:
        game.check(action)
    except EngineError:
        return None
    return action


def _decide(game: Game, seat: Seat, decision: float, max_strikes: int) -> Action | None:
    """Ask the seat's bot; None when it faulted (the fault is recorded)."""
    driver = seat.driver
    step = len(game.state.steps)
    if seat.wall_left <= 0:
        seat.wall_exhausted(step)
        return None
    clock = Clock(decision, max(0.0, seat.bank), game=seat.wall_left)
    observation = game.observe(seat.index)
    began = time.perf_counter()
    reply = driver.act(observation, clock)
    elapsed = time.perf_counter() - began
    seat.stats.add(elapsed)
    seat.wall_left -= elapsed
    offturn = driver.last_offturn_cpu
    charged = max(0.0, elapsed - driver.last_waited)  # the machine's load is not the bot's
    in_time = seat.charge(clock, driver.last_cpu, offturn, charged)
    if isinstance(reply, Fault):
        seat.record(reply, max_strikes)
        return None
    if not in_time:
        seat.bank_exhausted(clock, driver.last_cpu, step, offturn, charged)
        return None
    try:
        game.check(reply)
    except EngineError as exc:
        seat.record(Fault(seat.index, step, FaultKind.ILLEGAL, str(exc)), max_strikes)
        return None
    return reply


def _finish(game: Game, seats: list[Seat], seat_names: Sequence[str] | None) -> MatchResult:
    outcome = game.outcome
    assert outcome is not None
    for seat in seats:
        if seat.playing and seat.driver.alive:
            fault = seat.driver.end(game.observe(seat.index, with_legal=False), outcome)
            if fault is not None:
                seat.faults.append(fault)
    names = list(seat_names) if seat_names is not None else [s.driver.name for s in seats]
    tiers = [str(getattr(getattr(s.driver, "tier", None), "name", IN_PROCESS)) for s in seats]
    platform = [f for s in seats for f in s.faults if f.kind is FaultKind.PLATFORM]
    voided = None if not platform else f"platform fault: {platform[0].message}"
    forfeits = [s.forfeit for s in seats if s.forfeit is not None]
    meta: dict[str, object] = {"sandbox": tiers}
    flat = [f.to_dict() for s in seats for f in s.faults]
    if flat:
        meta |= {"faults": flat, "strikes": [s.strikes for s in seats]}
    if forfeits:
        meta["forfeits"] = [f.to_dict() for f in forfeits]
        forfeited = {f.seat for f in forfeits}
        winner = outcome.winner if outcome.winner not in forfeited else None
        meta["standings"] = {
            "placings": list(placings_with_forfeits(outcome, forfeited)),
            "winner": winner,
            "forfeited": sorted(forfeited),
        }
    if voided:
        meta["voided"] = voided
    replay = record(game, tuple({"seat": i, "name": names[i]} for i in range(len(seats))), **meta)
    return MatchResult(
        replay,
        outcome,
        [s.faults for s in seats],
        [s.stats for s in seats],
        [s.driver.take_log() for s in seats],
        forfeits=forfeits,
        tiers=tiers,
        voided=voided,
    )
