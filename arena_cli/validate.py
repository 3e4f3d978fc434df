"""``catan-arena validate FILE``: check a bot file the way the platform does on upload.

The file is imported in its own sandboxed process (the same :class:`BotRunner` as
``play`` and the workers; the effective tier is reported), which must find exactly one
``Player``, then plays a smoke game against three trusted ``random`` bots. Any failure
is explained in plain words (exit 1); a valid bot gets a short report (exit 0); a
sandbox failure (not the bot's fault) gives no verdict (exit 3).
"""

from __future__ import annotations

import argparse
import re
import sys

from arena_runner import (
    BotRunner,
    Fault,
    FaultKind,
    InProcessDriver,
    SandboxUnavailable,
    play_match,
    resolve_policy,
)
from bots.registry import BotLoadError, load_player_class, resolve_bot
from engine import Game, RulesConfig
from engine.rng import bot_seed

OPPONENT = "random"
TRACEBACK_LINES = 15


def run_validate(args: argparse.Namespace) -> int:
    """Validate ``args.file``; print the verdict; return the exit code."""
    if args.timeout <= 0:
        sys.stderr.write("error: --timeout must be positive\n")
        return 2
    try:
        path = resolve_bot(args.file)
    except BotLoadError as exc:
        return _invalid(args.file, str(exc))
    try:
        tier = getattr(args, "sandbox_tier", None)
        runner = BotRunner(resolve_policy(tier, trusted_local=tier is not None))
    except SandboxUnavailable as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    config = RulesConfig()
    seat = args.seed % config.players
    candidate = runner.driver(path)
    try:
        game = Game.new(config, args.seed)
        observation = game.observe(seat, with_legal=False)
        fault = candidate.start(seat, config, game.layout, bot_seed(args.seed, seat), observation)
        if fault is not None and fault.kind is FaultKind.PLATFORM:
            return _platform_error(fault.message)
        if fault is not None:
            return _invalid(args.file, _load_problem(fault), fault.detail)
        opponent = load_player_class(OPPONENT)
        drivers = [
            candidate if s == seat else InProcessDriver(opponent, OPPONENT)
            for s in range(config.players)
        ]
        result = play_match(config, args.seed, drivers, decision_timeout=args.timeout)
    finally:
        runner.close()
    if result.voided:
        return _platform_error(result.voided)
    faults, stats = result.faults[seat], result.stats[seat]
    if faults:
        first = faults[0]
        reason = f"{_explain(first, args.timeout)} (at step {first.step})"
        if len(faults) > 1:
            reason += f"; {len(faults)} faults in the smoke game"
        return _invalid(args.file, reason, first.detail)
    outcome = result.outcome
    log = result.logs[seat]
    lines = [
        f"valid: {args.file} (bot {candidate.name!r})",
        f"  sandbox: tier {runner.tier.name}",
        f"  smoke game: seed {args.seed}, seat {seat} against 3 {OPPONENT} bots, "
        f"{outcome.turns} turns, placed {result.placings[seat]} "
        f"with {outcome.points[seat]} points",
        f"  decisions: {stats.decisions}, mean {1000 * stats.mean:.2f} ms, "
        f"max {1000 * stats.max:.2f} ms (limit {args.timeout:g} s each)",
    ]
    if log:
        tail = log.rstrip().splitlines()[-10:]
        lines.append(f"  output: the bot printed {len(log)} characters; the last lines:")
        lines += [f"    | {line}" for line in tail]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _load_problem(fault: Fault) -> str:
    """Why the bot could not be loaded or started, with a hint for the common cases."""
    message = fault.message
    found = re.search(r"exactly one Player subclass, found (\d+)", message)
    if found and found.group(1) == "0":
        message += " (define one class that subclasses bots.Player and implements act())"
    elif found:
        message += " (keep one Player subclass per file; helpers need not subclass Player)"
    elif fault.kind is not FaultKind.ERROR:
        message = _explain(fault, 0.0)
    return message


def _explain(fault: Fault, timeout: float) -> str:
    """One fault in plain words."""
    if fault.kind is FaultKind.TIMEOUT:
        return f"it ran out of time ({timeout:g} s per decision): {fault.message}"
    if fault.kind is FaultKind.RESOURCE:
        return f"it hit a resource limit: {fault.message}"
    if fault.kind is FaultKind.PLATFORM:
        return f"the sandbox failed (not the bot's fault): {fault.message}"
    if fault.kind is FaultKind.CRASH:
        return f"its process died: {fault.message}"
    if fault.kind is FaultKind.ILLEGAL:
        return f"it chose an illegal action: {fault.message}"
    if fault.kind is FaultKind.GARBAGE:
        return f"its reply could not be understood: {fault.message}"
    return fault.message


def _platform_error(reason: str) -> int:
    """The sandbox, not the bot, failed: no verdict (exit 3)."""
    sys.stderr.write(f"error: the bot could not be checked on this host: {reason}\n")
    return 3


def _invalid(name: str, reason: str, detail: str = "") -> int:
    lines = [f"invalid: {name}", f"  reason: {reason}"]
    if detail:
        tail = detail.rstrip().splitlines()[-TRACEBACK_LINES:]
        lines += ["  details:", *(f"    {line}" for line in tail)]
    sys.stdout.write("\n".join(lines) + "\n")
    return 1
