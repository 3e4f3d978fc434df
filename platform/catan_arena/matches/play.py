"""Play one claimed match in this worker process: every seat's version in a fresh
sandboxed process (blank sandboxes started ahead hide the start-up), nothing of one
game carried to the next. No database writes here (see :mod:`.services`).

A game's bots exit in a thread of their own once it is over (each asked to exit, then
killed and reaped), while the worker records the result, hands the task back and claims
its next match; the next game starts only once they are all gone
(:func:`await_bots_exit`), and so does the runner's close at the process's end."""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings

from arena_runner import (
    BotRunner,
    MatchResult,
    SeatDriver,
    SubprocessDriver,
    play_match,
    resolve_policy,
)
from arena_runner.match import default_autopilot
from arena_runner.person import PersonDriver
from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.person_mailbox import DatabaseMailbox, PersonClaim
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.storage import materialize
from engine import Game, RulesConfig

_runner: BotRunner | None = None
_exiting: Played | None = None
"""The last game played in this process, while its bots may still be exiting."""


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
    seats: tuple[MatchSeat, ...]
    """The match's seat rows in seat order (each with its version and bot loaded)."""
    person: PersonClaim | None = None
    """A person's game: their seat (its version is the autopilot's stand-in, not run)."""

    @property
    def match(self) -> Match:
        """The match's row as the claim wrote it."""
        return self.seats[0].match

    @property
    def versions(self) -> tuple[BotVersion, ...]:
        """Each seat's bot version."""
        return tuple(seat.version for seat in self.seats)

    @property
    def names(self) -> list[str]:
        """Each seat's name in the replay (a person's: their name)."""
        names = [str(v) for v in self.versions]
        if self.person is not None:
            names[self.person.seat] = self.person.name
        return names


def worker_runner() -> BotRunner:
    """This process's runner (made on first use, closed at exit), keeping
    ``settings.WARM_SANDBOXES`` blank sandboxes started ahead."""
    global _runner
    if _runner is None:
        _runner = BotRunner(resolve_policy(), warm=settings.WARM_SANDBOXES)
        atexit.register(close_worker_runner)
    return _runner


def close_worker_runner() -> None:
    """Wait for the last game's bots to exit, then kill this process's blank sandboxes
    and remove its work dir (a worker process that exits; Celery's pool processes leave
    without running ``atexit``)."""
    global _runner
    await_bots_exit()
    if _runner is not None:
        _runner.close()
        _runner = None


def await_bots_exit() -> None:
    """Return once the bots of the last game played in this process are all gone."""
    global _exiting
    if _exiting is not None:
        _exiting.wait()
        _exiting = None


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
    thread meanwhile (each asked to exit, then killed and reaped), so the worker records
    the result and claims its next match during their exit instead of after it; the
    previous game's bots are awaited here, before this game's start
    (:func:`await_bots_exit`). A game that raises leaves with every bot already gone. A
    person's seat is a :class:`~arena_runner.person.PersonDriver` on the match's
    database row."""
    global _exiting
    await_bots_exit()
    runner = worker_runner()
    person = claim.person
    game = Game.new(claim.rules, claim.seed)
    drivers: list[SeatDriver] = []
    started: list[SubprocessDriver] = []
    try:
        for seat, version in enumerate(claim.versions):
            if person is not None and seat == person.seat:
                mailbox = DatabaseMailbox(claim.match_id, claim.attempt, game, claim.names)
                drivers.append(
                    PersonDriver(
                        mailbox,
                        default_autopilot(),
                        decision_seconds=person.decision_seconds,
                        away_seconds=person.away_seconds,
                        name=person.name,
                    )
                )
                continue
            driver = runner.driver(materialize(version), name=str(version))
            started.append(driver)
            drivers.append(driver)
        result = play_match(
            claim.rules,
            claim.seed,
            drivers,
            decision_timeout=claim.decision_seconds,
            time_bank=claim.time_bank_seconds,
            game_seconds=claim.game_seconds,
            seat_names=claim.names,
            on_step=on_step,
            start=game,
        )
    except BaseException:
        runner.release_all(started)
        raise
    exiting = threading.Thread(
        target=runner.release_all, args=(started,), name=f"bots-exit-{claim.match_id}"
    )
    exiting.start()
    _exiting = Played(result, exiting)
    return _exiting
