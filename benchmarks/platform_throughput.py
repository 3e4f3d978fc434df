"""``make bench-platform``: matches per minute through the platform's real Celery path
(Redis, PostgreSQL, ``celery worker`` processes, four ``random`` bots, full sandbox,
fresh bot processes for every game) side by side with the bare runner (``play_match`` in
a loop in the same number of processes, fresh bot processes per game, same seeds).

Both are set up alike, so that what differs is the platform's own work (the queue, the
claim, the result's writes): the bare runner's processes run in a session of their own
at the workers' niceness (``CATAN_ARENA_WORKER_NICENESS``; a worker lowers its priority
and its session's below the site's), each makes its runner (blank sandboxes started) when
it starts and both are left ``WORKERS_SETTLE`` seconds before their clocks start. The
platform's clock runs from the commit that queues the matches (the bare runner's starts
with its seeds in hand) to the last one recorded.

Each repeat runs both, alternating which goes first; the ratio platform / bare is
reported as min / median / max over the repeats, with both absolute figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from catan_arena.matches.priority import lower_priority  # noqa: E402

if TYPE_CHECKING:
    from arena_runner import BotRunner
BENCH_DB = "catan_arena_bench"
TARGET_RATIO = 0.95
"""Issue 25's goal: the platform plays at least this share of the bare runner's matches
per minute, with one worker process and with two."""


def _environment() -> dict[str, str]:
    """On the test suite's own PostgreSQL and Redis (``tests.support.services``: started
    here, and stopped at exit, unless the suite that runs this already has them)."""
    from tests.support.services import suite_services

    data = tempfile.mkdtemp(prefix="catan-bench-")
    services = suite_services()
    return {
        "DATABASE_URL": services.postgres_url(BENCH_DB),
        "CELERY_BROKER_URL": services.redis_url(14),
        "CATAN_ARENA_DATA": data,
        "DJANGO_SECRET_KEY": "bench-only",
        "DJANGO_SETTINGS_MODULE": "catan_arena.settings",
        "CATAN_ARENA_WARM_SANDBOXES": "4",
    }


def _fresh_database() -> None:
    import psycopg

    from tests.support.services import suite_services

    with psycopg.connect(suite_services().postgres_url(), autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {BENCH_DB}")


_runner: BotRunner | None = None
"""A bare-runner process's runner, made at its start as a worker's pool process makes its."""


def _bare_start(niceness: int) -> None:
    """A bare-runner process starts as a platform worker's pool process does: at the
    workers' niceness, with its runner's blank sandboxes started."""
    global _runner
    from arena_runner import BotRunner, resolve_policy

    lower_priority(niceness)
    _runner = BotRunner(resolve_policy(), warm=4)
    multiprocessing.util.Finalize(_runner, _runner.close, exitpriority=10)  # at its exit


def _bare_worker(seeds: list[str]) -> int:
    """One bare-runner process: each seed a game of four fresh sandboxed random bots."""
    from arena_runner import play_match
    from bots.registry import BUILTINS
    from engine import RulesConfig

    runner = _runner
    assert runner is not None
    for seed in seeds:
        drivers = [runner.driver(BUILTINS["random"]) for _ in range(4)]
        try:
            play_match(RulesConfig(), seed, drivers, decision_timeout=1.0, time_bank=10.0)
        finally:
            runner.release_all(drivers)
    return len(seeds)


def _bare_main(processes: int, niceness: int, seeds: list[str]) -> None:
    """The bare runner in a session of its own (``--bare``): its priority and its
    session's are the platform workers' (``settings.WORKER_NICENESS``, as
    :func:`~catan_arena.matches.priority.lower_worker_priority` sets a worker's), so the
    two are compared at one priority. Prints its seconds."""
    lower_priority(niceness, session=True)
    shares = [seeds[i::processes] for i in range(processes)]
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes, initializer=_bare_start, initargs=(niceness,)) as pool:
        pool.map(_bare_worker, [[]] * processes)  # started, outside the clock
        time.sleep(WORKERS_SETTLE)
        start = time.perf_counter()
        assert sum(pool.map(_bare_worker, shares)) == len(seeds)
        print(json.dumps(time.perf_counter() - start))
        pool.close()  # the processes exit (their runners closed), not terminated
        pool.join()


def run_bare(seeds: list[str], processes: int, niceness: int) -> float:
    """Seconds for the bare runner to play ``seeds`` on ``processes`` processes."""
    command = [sys.executable, __file__, "--bare", str(processes), str(niceness), *seeds]
    done = subprocess.run(
        command, check=True, capture_output=True, text=True, start_new_session=True
    )
    seconds: float = json.loads(done.stdout.strip().splitlines()[-1])
    return seconds


WORKERS_SETTLE = 2.0
"""Seconds the workers are left to start their runners (blank sandboxes) before the clock."""


TAIL_POLL = 0.005
"""Seconds between two looks at the last matches' status (0.1 s before them: a look
costs the machine CPU the workers use)."""


UNFINISHED_SQL = "SELECT count(*) FROM matches_match WHERE id > %s AND status = ANY(%s)"


def _unfinished(after_id: int) -> int:
    """How many matches after ``after_id`` are still to play: one plain query (the ORM's
    compilation, ~0.3 ms of CPU a look, is the bench's, taken from the workers')."""
    from django.db import connection

    from catan_arena.matches.models import Match

    with connection.cursor() as cursor:
        cursor.execute(UNFINISHED_SQL, [after_id, [str(s) for s in Match.IN_FLIGHT]])
        row = cursor.fetchone()
    return int(row[0])


def run_platform(seeds: list[str], processes: int, env: dict[str, str]) -> float:
    """Seconds for ``processes`` celery workers to play ``seeds`` queued as matches: from
    the commit that queues them (as the bare runner's clock starts with its seeds in
    hand; a scheduler queues matches while the workers play) to the last one recorded."""
    from django.db import transaction

    from catan_arena.matches.models import Match
    from catan_arena.matches.services import MatchLimits, create_match
    from catan_arena.submissions.services import register_builtins
    from tests.support.celery_worker import CeleryWorker

    random_bot = next(v for v in register_builtins() if v.bot.name == "random")
    workers = [CeleryWorker(env, concurrency=1) for _ in range(processes)]
    time.sleep(WORKERS_SETTLE)  # pool processes start their runners after "ready"
    try:
        first = Match.objects.order_by("-id").values_list("id", flat=True).first() or 0
        queued: list[float] = []
        with transaction.atomic():
            # runs first of the commit's callbacks, before any match is sent to a worker
            transaction.on_commit(lambda: queued.append(time.perf_counter()))
            for seed in seeds:
                create_match([random_bot] * 4, limits=MatchLimits(1.0, 10.0), seed=seed)
        while (left := _unfinished(first)) > 0:
            time.sleep(0.1 if left > processes else TAIL_POLL)
        elapsed = time.perf_counter() - queued[0]
        finished = Match.objects.filter(id__gt=first, status=Match.Status.FINISHED).count()
        assert finished == len(seeds), "a match did not finish"
        return elapsed
    finally:
        for worker in workers:
            worker.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per run (default 30)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--bare", nargs="+", help=argparse.SUPPRESS)  # run_bare's own process
    args = parser.parse_args(argv)
    if args.bare:
        processes, niceness, *seeds = args.bare
        _bare_main(int(processes), int(niceness), seeds)
        return 0

    env = _environment()
    os.environ.update(env)
    _fresh_database()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from engine.rng import new_seed

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    print(f"{args.games} games of four random bots per run, full sandbox, fresh bots per game")
    print(f"{'procs':>5} {'bare m/min':>22} {'platform m/min':>22} {'platform/bare':>24}")
    for processes in args.processes:
        bare_rates, platform_rates, ratios = [], [], []
        for repeat in range(args.repeats):
            seeds = [new_seed() for _ in range(args.games)]
            order = ("bare", "platform") if repeat % 2 == 0 else ("platform", "bare")
            seconds = {}
            for which in order:
                if which == "bare":
                    seconds[which] = run_bare(seeds, processes, settings.WORKER_NICENESS)
                else:
                    seconds[which] = run_platform(seeds, processes, env)
            bare = 60 * args.games / seconds["bare"]
            platform = 60 * args.games / seconds["platform"]
            bare_rates.append(bare)
            platform_rates.append(platform)
            ratios.append(platform / bare)
        print(
            f"{processes:>5} {_spread(bare_rates):>22} {_spread(platform_rates):>22} "
            f"{_spread(ratios, '.3f'):>24}"
        )
    print(f"(min/median/max over repeats; target: platform/bare >= {TARGET_RATIO:.2f})")
    return 0


def _spread(values: list[float], fmt: str = ".1f") -> str:
    return "/".join(format(v, fmt) for v in (min(values), statistics.median(values), max(values)))


if __name__ == "__main__":
    sys.exit(main())
