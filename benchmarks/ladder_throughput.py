"""``make bench-ladder``: ladder matches per minute made by the ladder's own scheduler
(a real ``celery worker`` with beat, Redis, PostgreSQL; tables planned by the
matchmaker, topped up as each match finishes) side by side with the bare runner playing
the very same tables (same bots in the same seats, same seeds, same limits) with
``play_match`` in the same number of processes.

Six bots are on the ladder: the three house bots and three uploaded versions of three
other authors (copies of the built-in ``random`` and ``heuristic`` files). Both sides'
processes are started once per process count and kept: after one warm-up chunk of each,
every repeat runs the ladder for ``--games`` finished games from the moment it is
resumed (paused again and drained after), then the bare runner on those games at once,
so the two sides of a repeat are seconds apart (this machine's speed drifts from minute
to minute). Both sides run at the workers' priority: the bare processes in a session of
their own at ``WORKER_NICENESS``, as the Celery worker is (their bots' cgroups weigh the
same on both sides). The ratio ladder / bare is reported as min / median / max over the repeats,
with both absolute rates and the workers' busy fraction (time the worker processes
spent in match tasks — claim, game, record, the bots' exit — by the worker's log, over
the ladder's window).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from catan_arena.matches.models import Match

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
BENCH_DB = "catan_arena_bench_ladder"
UPLOADS = (("ada", "random_bot.py"), ("grace", "heuristic.py"), ("hedy", "random_bot.py"))
"""The three other authors and the built-in file each uploads a copy of."""
POLL_SECONDS = 0.5
"""How often the bench looks for the ladder's finished games. The window ends at the
n-th game's ``finished_at`` (the database's clock), so a slower look changes no figure;
a faster one takes CPU from the ladder's side only (the bare side's parent blocks)."""


def _environment(broker: str) -> dict[str, str]:
    """On the test suite's own PostgreSQL and Redis (``tests.support.services``: started
    here, and stopped at exit, unless the suite that runs this already has them)."""
    from tests.support.services import suite_services

    return {
        "DATABASE_URL": suite_services().postgres_url(BENCH_DB),
        "CELERY_BROKER_URL": broker,
        "CACHE_URL": broker,  # shared by every process, as the compose file's (there db 1)
        "CATAN_ARENA_DATA": tempfile.mkdtemp(prefix="catan-bench-ladder-"),
        "DJANGO_SECRET_KEY": "bench-only",
        "DJANGO_SETTINGS_MODULE": "catan_arena.settings",
        "CATAN_ARENA_WARM_SANDBOXES": "4",
        "CATAN_ARENA_HOUSE_BOTS_ON_LADDER": "true",
        # both sides at the workers' niceness: the setting's default unless the shell sets it
        **{k: v for k, v in os.environ.items() if k == "CATAN_ARENA_WORKER_NICENESS"},
    }


def _fresh_database() -> None:
    import psycopg

    from tests.support.services import suite_services

    with psycopg.connect(suite_services().postgres_url(), autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {BENCH_DB}")


@dataclass(frozen=True)
class Table:
    """One game as the ladder played it, enough for the bare runner to play it again."""

    rules: dict[str, Any]
    seed: str
    paths: tuple[str, ...]
    decision_seconds: float
    time_bank_seconds: float
    game_seconds: float

    @classmethod
    def of(cls, match: Match) -> Table:
        """``match`` as the bare runner plays it again: its seed, rules, clock and bot
        files (materialized as a worker does)."""
        from catan_arena.submissions.storage import materialize

        return cls(
            rules=match.rules,
            seed=match.seed,
            paths=tuple(str(materialize(s.version)) for s in match.seats.order_by("seat")),
            decision_seconds=match.decision_seconds,
            time_bank_seconds=match.time_bank_seconds,
            game_seconds=match.game_seconds,
        )


@dataclass(frozen=True)
class LadderRun:
    seconds: float
    busy: float
    tables: list[Table]


def _set_up_ladder(decision: float, bank: float) -> None:
    """Six bots on a paused ladder kept at full speed (never settled during the bench)."""
    from bots.registry import BUILTINS
    from catan_arena.accounts.models import User
    from catan_arena.ladder.models import LadderSettings
    from catan_arena.ladder.services import ensure_house_bots
    from catan_arena.submissions.models import BotVersion
    from catan_arena.submissions.services import upload_version

    LadderSettings.objects.create(
        pk=LadderSettings.ROW,
        paused=True,
        decision_seconds=decision,
        time_bank_seconds=bank,
        settled_games=10**6,
    )
    ensure_house_bots()
    files = {path.name: path for path in BUILTINS.values()}
    for name, filename in UPLOADS:
        author = User.objects.create_user(name, password="bench-only-4521")
        data = files[filename].read_bytes() + f"\n# {name}'s copy\n".encode()
        version = upload_version(author, f"{name}-bot", filename, data).version
        BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)


def _set_paused(paused: bool) -> None:
    from catan_arena.ladder.models import LadderSettings

    LadderSettings.objects.filter(pk=LadderSettings.ROW).update(paused=paused)


class Ladder:
    """The ladder's scheduler for one run: one match worker of ``processes`` pool
    processes with beat, and a quick worker, started once and kept between chunks."""

    def __init__(self, processes: int, env: dict[str, str]) -> None:
        from catan_arena.core.queues import MATCH_QUEUE, VALIDATION_QUEUE
        from tests.support.celery_worker import CeleryWorker

        self.processes = processes
        # The production topology: match workers, and a worker reserved for the quick
        # queue (validations, the ladder's top-ups), as the compose file's `validator`.
        self.worker = CeleryWorker(env, concurrency=processes, beat=True, queues=MATCH_QUEUE)
        self.quick = CeleryWorker(env, concurrency=1, queues=VALIDATION_QUEUE)
        time.sleep(2.0)  # pool processes start their runners (blank sandboxes) after "ready"

    def chunk(self, games: int) -> LadderRun:
        """Resume the ladder; the time until ``games`` of its matches have finished,
        measured on the database's clock; those games' tables. Paused again, and every
        match it made played, before it returns."""
        from django.utils import timezone

        from catan_arena.ladder.selectors import matchmaker_matches
        from catan_arena.ladder.services import fill_ladder

        first = matchmaker_matches().order_by("-id").values_list("id", flat=True).first() or 0
        mine = matchmaker_matches().filter(id__gt=first)
        try:
            _set_paused(False)
            start = timezone.now()
            fill_ladder()  # what beat's next tick would do; from here on the ladder runs itself
            finished = mine.filter(status="finished")
            while finished.count() < games:
                if mine.filter(status__in=("failed", "void")).exists():
                    output = self.worker.output()[-4000:]
                    raise RuntimeError(f"a ladder match failed:\n{output}")
                time.sleep(POLL_SECONDS)
        finally:
            _set_paused(True)
        played = list(finished.order_by("finished_at").prefetch_related("seats__version")[:games])
        end = played[-1].finished_at
        assert end is not None
        window = (end - start).total_seconds()
        tables = [Table.of(m) for m in played]
        while mine.filter(status__in=("queued", "running")).exists():
            time.sleep(0.1)  # the bare runner's chunk starts on an idle machine
        time.sleep(0.5)  # the last task's log line
        busy = sum(_overlap(a, b, start, end) for a, b in _task_spans(self.worker.output()))
        return LadderRun(window, busy / (self.processes * window), tables)

    def stop(self) -> None:
        self.worker.stop()
        self.quick.stop()


TASK_DONE = re.compile(
    r"^\[(?P<at>[0-9-]+ [0-9:,]+): INFO/[^\]]+\] Task [\w.]+play_match_task\[[^\]]+\] "
    r"succeeded in (?P<seconds>[0-9.]+)s",
    re.MULTILINE,
)
"""The worker's log line for a match task done: when it ended and how long it ran."""


def _task_spans(log: str) -> list[tuple[datetime, datetime]]:
    """Each match task's [start, end] from the worker's log (its local time): claim,
    game, record and the bots' exit, all of the time a pool process spent on it."""
    spans = []
    for hit in TASK_DONE.finditer(log):
        end = datetime.strptime(hit["at"], "%Y-%m-%d %H:%M:%S,%f").astimezone()
        spans.append((end - timedelta(seconds=float(hit["seconds"])), end))
    return spans


def _overlap(a: datetime, b: datetime, start: datetime, end: datetime) -> float:
    """Seconds of [a, b] inside [start, end]."""
    return max(0.0, (min(b, end) - max(a, start)).total_seconds())


def _exit_with_parent(children: Sequence[BaseProcess] = ()) -> None:
    """A bench stopped (Ctrl-C, killed) takes its bare-runner processes with it: each
    exits when its parent does (asking its own ``children`` to exit first), through its
    ``finally`` (its runner's blank sandboxes killed), instead of waiting forever for the
    next table."""

    def leave(signum: int, frame: object) -> None:
        for child in children:
            child.terminate()
        raise SystemExit(128 + signum)

    from catan_arena.embedded.workers import die_with_parent

    signal.signal(signal.SIGTERM, leave)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal's Ctrl-C is the bench's
    die_with_parent()


def _bare_process(work: Any, ready: Any, done: Any, niceness: int) -> None:
    """One bare-runner process at the workers' ``niceness``: its runner (blank sandboxes
    started ahead, as a worker's), then the next table from the shared queue until it
    gets None, each finish time sent to ``done``; every seat's bot file in a fresh
    sandboxed process."""
    from arena_runner import BotRunner, play_match, resolve_policy
    from engine import RulesConfig

    _exit_with_parent()
    runner = BotRunner(resolve_policy(), warm=4)
    try:
        ready.put(1)
        while (table := work.get()) is not None:
            drivers = [runner.driver(Path(p)) for p in table.paths]
            try:
                play_match(
                    RulesConfig.from_dict(table.rules),
                    table.seed,
                    drivers,
                    decision_timeout=table.decision_seconds,
                    time_bank=table.time_bank_seconds,
                    game_seconds=table.game_seconds,
                )
            finally:
                runner.release_all(drivers)
            done.put(time.perf_counter())
    finally:
        runner.close()


def _bare_session(processes: int, work: Any, ready: Any, done: Any, niceness: int) -> None:
    """A session of its own at the workers' ``niceness`` (the process's and, with
    autogroups, the session's, as a worker started as a service lowers both), holding
    the ``processes`` bare-runner processes, as a Celery worker holds its pool."""
    from catan_arena.matches.priority import lower_priority

    os.setsid()
    lower_priority(niceness, session=True)
    context = multiprocessing.get_context("spawn")
    children = [
        context.Process(target=_bare_process, args=(work, ready, done, niceness))
        for _ in range(processes)
    ]
    _exit_with_parent(children)
    for child in children:
        child.start()
    for child in children:
        child.join()


class Bare:
    """``processes`` bare-runner processes, started once and kept between chunks."""

    def __init__(self, processes: int) -> None:
        from django.conf import settings

        context = multiprocessing.get_context("spawn")
        self.work, ready, self.done = context.Queue(), context.Queue(), context.Queue()
        self.processes = processes
        self.session = context.Process(
            target=_bare_session,
            args=(processes, self.work, ready, self.done, settings.WORKER_NICENESS),
        )
        self.session.start()
        for _ in range(processes):
            ready.get(timeout=120)  # start-up (imports) outside the clock
        time.sleep(2.0)  # the blank sandboxes started ahead, as the workers get

    def chunk(self, tables: list[Table], keep_busy: bool = True) -> float:
        """Seconds until the processes have played ``len(tables)`` games, each taking
        the next table when it is free (as the workers do). The ladder is timed to its
        n-th finished game while its workers are still busy, so the bare runner is too
        (``keep_busy``): the other processes play the first tables again meanwhile
        (waited for, outside the clock)."""
        extra = tables[: self.processes - 1] if keep_busy else []
        start = time.perf_counter()
        for table in [*tables, *extra]:
            self.work.put(table)
        finishes = sorted(float(self.done.get(timeout=3600)) for _ in tables)
        for _ in extra:
            self.done.get(timeout=3600)
        return finishes[-1] - start

    def stop(self) -> None:
        for _ in range(self.processes):
            self.work.put(None)
        self.session.join(600)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per repeat (default 20)")
    parser.add_argument("--repeats", type=int, default=8)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--decision-seconds", type=float, default=1.0)
    parser.add_argument("--time-bank-seconds", type=float, default=10.0)
    parser.add_argument(
        "--redis-db", type=int, default=0, help="flushed first (the tests use 1-15)"
    )
    args = parser.parse_args(argv)

    from tests.support.services import suite_services

    broker = suite_services().redis_url(args.redis_db)
    env = _environment(broker)
    os.environ.update(env)
    _fresh_database()
    import django

    django.setup()
    import redis
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    _set_up_ladder(args.decision_seconds, args.time_bank_seconds)
    redis.Redis.from_url(broker).flushdb()  # the uploads' validations: they are active
    print(
        f"{args.games} ladder games per run: 3 house bots + 3 uploaded bots of 3 authors, "
        f"{args.decision_seconds:g} s a decision, {args.time_bank_seconds:g} s bank, "
        "full sandbox, fresh bots per game"
    )
    header = ("procs", "bare m/min", "ladder m/min", "ladder/bare", "workers busy")
    print(f"{header[0]:>5} {header[1]:>20} {header[2]:>20} {header[3]:>20} {header[4]:>20}")
    for processes in args.processes:
        bare_rates, ladder_rates, ratios, busy = [], [], [], []
        ladder, bare = Ladder(processes, env), Bare(processes)
        try:
            ladder.chunk(args.games)  # warm-up of both sides, not counted
            for _ in range(args.repeats):  # each ladder chunk, then the same tables bare
                run = ladder.chunk(args.games)
                bare_seconds = bare.chunk(run.tables)
                bare_rates.append(60 * args.games / bare_seconds)
                ladder_rates.append(60 * args.games / run.seconds)
                ratios.append(ladder_rates[-1] / bare_rates[-1])
                busy.append(run.busy)
        finally:
            ladder.stop()
            bare.stop()
        print(
            f"{processes:>5} {_spread(bare_rates):>20} {_spread(ladder_rates):>20} "
            f"{_spread(ratios, '.3f'):>20} {_spread(busy, '.3f'):>20}",
            flush=True,
        )
    print("(min/median/max over repeats; target: ladder/bare >= 0.90, workers busy >= 0.90)")
    return 0


def _spread(values: list[float], fmt: str = ".1f") -> str:
    return "/".join(format(v, fmt) for v in (min(values), statistics.median(values), max(values)))


if __name__ == "__main__":
    sys.exit(main())
