"""Validate a bot the way the platform does on upload, and ``catan-arena validate`` does
locally — both call :func:`validate_bot` under a
:class:`~arena_runner.validation_policy.ValidationPolicy`: the file is checked against the
package caps (:func:`bots.package.check_package`), imported in its own sandboxed process
(it must define exactly one ``Player``), then plays the policy's smoke game(s) against
trusted ``random`` bots under the policy's clock. The verdict says, in plain words, what
failed (with the traceback tail) or how the smoke games went."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from arena_runner.disclosure import plain_reason
from arena_runner.drivers import InProcessDriver
from arena_runner.match import play_match
from arena_runner.result import Fault, FaultKind
from arena_runner.runner import BotRunner
from arena_runner.subprocess_driver import SubprocessDriver
from arena_runner.validation_policy import ValidationPolicy, smoke_seat, smoke_seeds
from bots.package import BotPackageError, check_package, upload_bytes
from bots.registry import load_player_class
from engine import Game
from engine.rng import Seed, bot_seed

TRACEBACK_LINES = 15
LOG_LINES = 10
PACKAGE = "package"
"""The kind of a verdict on a file refused before it runs (caps, encoding, no bot.py)."""


@dataclass(frozen=True)
class Verdict:
    """``valid`` True (passed), False (the bot failed) or None (the sandbox failed: no
    verdict). ``reason`` is one line in plain words; ``kind`` what failed (``package``,
    or a fault kind: ``error``, ``timeout``, ``crash``...); ``detail`` a traceback tail
    or log; ``report`` the lines of a passing bot's report; ``clock`` the clock a
    time-out ran out of; ``public`` the report's lines that anyone may read (no output
    of the bot's)."""

    valid: bool | None
    reason: str = ""
    detail: str = ""
    report: tuple[str, ...] = field(default_factory=tuple)
    name: str = ""
    kind: str = ""
    clock: str = ""
    public: tuple[str, ...] = field(default_factory=tuple)

    def text(self) -> str:
        """The verdict as the multi-line report shown to the bot's author."""
        if self.valid:
            return "\n".join(self.report)
        lines = [f"reason: {self.reason}"]
        if self.kind:
            lines.append(f"kind: {self.kind}")
        lines += list(self.report)
        if self.detail:
            lines += ["details:", *(f"  {line}" for line in self.detail.splitlines())]
        return "\n".join(lines)

    def summary(self) -> str:
        """The verdict for everyone: passed, or rejected with a plain reason
        (:mod:`arena_runner.disclosure`); never what the bot printed or raised, nor
        paths. :meth:`text` is its author's."""
        if self.valid is None:
            return "validation could not run (the sandbox failed, not the bot): tried again"
        if self.valid:
            return "\n".join(("verdict: passed", *self.public))
        where = "" if self.kind == PACKAGE else " in its smoke game"
        reason = f"reason: {plain_reason(self.kind, self.clock or None)}{where}"
        return "\n".join(("verdict: rejected", reason, *self.public))


def validate_bot(
    path: Path, runner: BotRunner, *, seed: Seed, policy: ValidationPolicy | None = None
) -> Verdict:
    """Check ``path`` (file, folder or zip) against ``policy``'s package caps, import it
    in a sandbox of ``runner`` and play the smoke game(s) from ``seed`` with it. The
    runner is left open."""
    policy = policy or ValidationPolicy()
    try:
        filename, data = upload_bytes(path)
        check_package(filename, data, policy.package)
    except (BotPackageError, OSError) as exc:
        return Verdict(False, _package_problem(exc), kind=PACKAGE)
    candidate = runner.driver(path)
    limits = policy.limits_text()
    lines = [f"sandbox: tier {runner.tier.name}", limits]
    public = list(lines)
    for game_seed in smoke_seeds(seed, policy.smoke_games):
        verdict = _smoke_game(candidate, game_seed, policy)
        if verdict.valid is not True:
            said = (limits, f"smoke game: seed {game_seed}")
            return Verdict(
                verdict.valid,
                verdict.reason,
                verdict.detail,
                said,
                candidate.name,
                verdict.kind,
                verdict.clock,
                said,
            )
        lines += verdict.report
        public += verdict.public
    return Verdict(True, report=tuple(lines), name=candidate.name, public=tuple(public))


def _smoke_game(candidate: SubprocessDriver, seed: Seed, policy: ValidationPolicy) -> Verdict:
    """One smoke game: the candidate in its seat, ``policy.opponent`` in the others."""
    config = policy.rules
    seat = smoke_seat(seed, config.players)
    game = Game.new(config, seed)
    observation = game.observe(seat, with_legal=False)
    fault = candidate.start(seat, config, game.layout, bot_seed(seed, seat), observation)
    if fault is not None and fault.kind is FaultKind.PLATFORM:
        return Verdict(None, f"the sandbox failed (not the bot's fault): {fault.message}")
    if fault is not None:
        detail = _tail(fault.detail, TRACEBACK_LINES)
        clock = fault.clock.value if fault.clock is not None else ""
        return Verdict(False, load_problem(fault), detail, kind=fault.kind.value, clock=clock)
    opponent = load_player_class(policy.opponent)
    drivers = [
        candidate if s == seat else InProcessDriver(opponent, policy.opponent)
        for s in range(config.players)
    ]
    result = play_match(
        config,
        seed,
        drivers,
        decision_timeout=policy.decision_seconds,
        time_bank=policy.time_bank_seconds,
        game_seconds=policy.game_budget,
    )
    if result.voided:
        return Verdict(None, f"the sandbox failed (not the bot's fault): {result.voided}")
    faults, stats = result.faults[seat], result.stats[seat]
    log = result.logs[seat] if result.logs else ""
    if faults:
        first = faults[0]
        reason = f"{explain(first)} (at step {first.step})"
        if len(faults) > 1:
            reason += f"; {len(faults)} faults in the smoke game"
        detail = _tail(first.detail, TRACEBACK_LINES)
        clock = first.clock.value if first.clock is not None else ""
        return Verdict(False, reason, detail, kind=first.kind.value, clock=clock)
    outcome = result.outcome
    others = config.players - 1
    lines = [
        f"smoke game: seed {seed}, seat {seat} against {others} {policy.opponent} bots, "
        f"{outcome.turns} turns, placed {result.placings[seat]} "
        f"with {outcome.points[seat]} points",
        f"decisions: {stats.decisions}, mean {1000 * stats.mean:.2f} ms, "
        f"max {1000 * stats.max:.2f} ms, {stats.total:.3g} s in all "
        f"(limits {policy.decision_seconds:g} s each, {policy.game_budget:g} s per game)",
    ]
    public = tuple(lines)
    if log:
        lines.append(f"output: the bot printed {len(log)} characters; the last lines:")
        lines += [f"  | {line}" for line in _tail(log, LOG_LINES).splitlines()]
    return Verdict(True, report=tuple(lines), public=public)


def _package_problem(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return f"the bot cannot be read: {exc.strerror or exc}"
    return f"the upload is refused: {exc}"


def load_problem(fault: Fault) -> str:
    """Why the bot could not be loaded or started, with a hint for the common cases."""
    message = fault.message
    found = re.search(r"exactly one Player subclass, found (\d+)", message)
    if found and found.group(1) == "0":
        message += " (define one class that subclasses bots.Player and implements act())"
    elif found:
        message += " (keep one Player subclass per file; helpers need not subclass Player)"
    elif fault.kind is not FaultKind.ERROR:
        message = explain(fault)
    return message


def explain(fault: Fault) -> str:
    """One fault in plain words (a time-out names the clock that ran out; its message
    has the figures and what to change)."""
    if fault.kind is FaultKind.TIMEOUT:
        which = f" ({fault.clock.label})" if fault.clock is not None else ""
        return f"it ran out of time{which}: {fault.message}"
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
