"""Validate a bot the way the platform does on upload, and ``catan-arena validate`` does
locally: import it in its own sandboxed process (it must define exactly one ``Player``),
then play one smoke game against three trusted ``random`` bots. The verdict says, in
plain words, what failed (with the traceback tail) or how the smoke game went."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from arena_runner.drivers import InProcessDriver
from arena_runner.match import play_match
from arena_runner.result import Fault, FaultKind
from arena_runner.runner import BotRunner
from bots.registry import load_player_class
from engine import Game, RulesConfig
from engine.rng import bot_seed

OPPONENT = "random"
TRACEBACK_LINES = 15
LOG_LINES = 10


@dataclass(frozen=True)
class Verdict:
    """``valid`` True (passed), False (the bot failed) or None (the sandbox failed: no
    verdict). ``reason`` is one line in plain words; ``detail`` a traceback tail or log;
    ``report`` the lines of a passing bot's report."""

    valid: bool | None
    reason: str = ""
    detail: str = ""
    report: tuple[str, ...] = field(default_factory=tuple)
    name: str = ""

    def text(self) -> str:
        """The verdict as the multi-line report shown to the bot's author."""
        if self.valid:
            return "\n".join(self.report)
        lines = [f"reason: {self.reason}"]
        if self.detail:
            lines += ["details:", *(f"  {line}" for line in self.detail.splitlines())]
        return "\n".join(lines)


def validate_bot(
    path: Path, runner: BotRunner, *, seed: int = 1, decision_timeout: float = 5.0
) -> Verdict:
    """Import ``path`` (file, folder or zip) in a sandbox of ``runner`` and play the smoke
    game ``seed`` with it in seat ``seed % 4``. The runner is left open."""
    config = RulesConfig()
    seat = seed % config.players
    candidate = runner.driver(path)
    game = Game.new(config, seed)
    observation = game.observe(seat, with_legal=False)
    fault = candidate.start(seat, config, game.layout, bot_seed(seed, seat), observation)
    if fault is not None and fault.kind is FaultKind.PLATFORM:
        return Verdict(None, f"the sandbox failed (not the bot's fault): {fault.message}")
    if fault is not None:
        return Verdict(False, load_problem(fault), _tail(fault.detail, TRACEBACK_LINES))
    opponent = load_player_class(OPPONENT)
    drivers = [
        candidate if s == seat else InProcessDriver(opponent, OPPONENT)
        for s in range(config.players)
    ]
    result = play_match(config, seed, drivers, decision_timeout=decision_timeout)
    if result.voided:
        return Verdict(None, f"the sandbox failed (not the bot's fault): {result.voided}")
    faults, stats = result.faults[seat], result.stats[seat]
    log = result.logs[seat] if result.logs else ""
    if faults:
        first = faults[0]
        reason = f"{explain(first, decision_timeout)} (at step {first.step})"
        if len(faults) > 1:
            reason += f"; {len(faults)} faults in the smoke game"
        return Verdict(False, reason, _tail(first.detail, TRACEBACK_LINES), name=candidate.name)
    outcome = result.outcome
    lines = [
        f"sandbox: tier {runner.tier.name}",
        f"smoke game: seed {seed}, seat {seat} against 3 {OPPONENT} bots, "
        f"{outcome.turns} turns, placed {result.placings[seat]} "
        f"with {outcome.points[seat]} points",
        f"decisions: {stats.decisions}, mean {1000 * stats.mean:.2f} ms, "
        f"max {1000 * stats.max:.2f} ms (limit {decision_timeout:g} s each)",
    ]
    if log:
        lines.append(f"output: the bot printed {len(log)} characters; the last lines:")
        lines += [f"  | {line}" for line in _tail(log, LOG_LINES).splitlines()]
    return Verdict(True, report=tuple(lines), name=candidate.name)


def load_problem(fault: Fault) -> str:
    """Why the bot could not be loaded or started, with a hint for the common cases."""
    message = fault.message
    found = re.search(r"exactly one Player subclass, found (\d+)", message)
    if found and found.group(1) == "0":
        message += " (define one class that subclasses bots.Player and implements act())"
    elif found:
        message += " (keep one Player subclass per file; helpers need not subclass Player)"
    elif fault.kind is not FaultKind.ERROR:
        message = explain(fault, 0.0)
    return message


def explain(fault: Fault, timeout: float) -> str:
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


def _tail(text: str, lines: int) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:]) if text else ""
