"""Play one claimed match in this worker process: every seat's version in a fresh
sandboxed process (blank sandboxes started ahead hide the start-up), nothing of one
game carried to the next. No database writes here (see :mod:`.services`)."""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings

from arena_runner import BotRunner, MatchResult, play_match, resolve_policy
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.storage import materialize
from engine import Game, RulesConfig

_runner: BotRunner | None = None


@dataclass(frozen=True)
class Claim:
    """A match this worker claimed (attempt ``attempt``), with what it needs to play."""

    match_id: int
    attempt: int
    seed: str
    rules: RulesConfig
    decision_seconds: float
    time_bank_seconds: float
    game_seconds: float
    versions: tuple[BotVersion, ...]


def worker_runner() -> BotRunner:
    """This process's runner (made on first use, closed at exit), keeping
    ``settings.WARM_SANDBOXES`` blank sandboxes started ahead."""
    global _runner
    if _runner is None:
        _runner = BotRunner(resolve_policy(), warm=settings.WARM_SANDBOXES)
        atexit.register(_runner.close)
    return _runner


def close_worker_runner() -> None:
    """Kill this process's blank sandboxes and remove its work dir (a worker process
    that exits; Celery's pool processes leave without running ``atexit``)."""
    global _runner
    if _runner is not None:
        _runner.close()
        _runner = None


@dataclass
class Played:
    """A game played whose bot processes may still be exiting: :meth:`wait` returns once
    they are all gone (killed if they did not exit, reaped)."""

    result: MatchResult
    exiting: threading.Thread | None = field(default=None, repr=False)

    def wait(self) -> None:
        if self.exiting is not None:
            self.exiting.join()
            self.exiting = None


def play_claim(claim: Claim, on_step: Callable[[Game], None] | None = None) -> MatchResult:
    """Play the claimed match (``on_step``: see :func:`arena_runner.play_match`); the bot
    processes are gone when it returns."""
    played = play_claim_bots_exiting(claim, on_step)
    played.wait()
    return played.result


def play_claim_bots_exiting(claim: Claim, on_step: Callable[[Game], None] | None = None) -> Played:
    """Play the claimed match and return as soon as it is over, its bots exiting in a
    thread meanwhile (each asked to exit, then killed and reaped: ~30 ms a bot), so
    the caller records the result during their exit instead of after it. The caller
    must :meth:`Played.wait` before it starts another game. A game that raises leaves
    with every bot already gone."""
    runner = worker_runner()
    paths = [materialize(version) for version in claim.versions]
    drivers = []
    try:
        for version, path in zip(claim.versions, paths, strict=True):
            drivers.append(runner.driver(path, name=str(version)))
        result = play_match(
            claim.rules,
            claim.seed,
            drivers,
            decision_timeout=claim.decision_seconds,
            time_bank=claim.time_bank_seconds,
            game_seconds=claim.game_seconds,
            seat_names=[str(v) for v in claim.versions],
            on_step=on_step,
        )
    except BaseException:
        runner.release_all(drivers)
        raise
    exiting = threading.Thread(
        target=runner.release_all, args=(drivers,), name=f"bots-exit-{claim.match_id}"
    )
    exiting.start()
    return Played(result, exiting)
