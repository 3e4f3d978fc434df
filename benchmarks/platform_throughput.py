"""``make bench-platform``: matches per minute through the platform's real Celery path
(Redis, PostgreSQL, ``celery worker`` processes, four ``random`` bots, full sandbox,
fresh bot processes for every game) side by side with the bare runner (``play_match`` in
a loop in the same number of processes, fresh bot processes per game, the same games).

Both are set up alike, so that what differs is the platform's own work (the queue, the
claim, the result's writes): the workers and the bare runner's processes (in a session
of their own at the workers' niceness, ``CATAN_ARENA_WORKER_NICENESS``, as
``make bench-ladder``'s) are started once for each process count, each with its runner
(blank sandboxes started), and kept; a warm-up chunk of each is not counted. Each repeat
then plays the same seeds on both, one right after the other (alternating which goes
first), so a change in the machine's speed between repeats moves both alike. The
platform's clock runs from the commit that queues the matches (the bare runner's starts
with its tables in hand) to the last one recorded.

The ratio platform / bare is reported as min / median / max over the repeats, with both
absolute figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from benchmarks.ladder_throughput import Bare, Table  # noqa: E402

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


class Platform:
    """``processes`` celery workers of one pool process each, started once and kept
    between chunks."""

    def __init__(self, processes: int, env: dict[str, str]) -> None:
        from catan_arena.submissions.services import register_builtins
        from tests.support.celery_worker import CeleryWorker

        self.version = next(v for v in register_builtins() if v.bot.name == "random")
        self.workers = [CeleryWorker(env, concurrency=1) for _ in range(processes)]
        self.processes = processes
        time.sleep(WORKERS_SETTLE)  # pool processes start their runners after "ready"

    def chunk(self, seeds: list[str]) -> tuple[float, list[Table]]:
        """Seconds for the workers to play ``seeds`` queued as matches: from the commit
        that queues them (as the bare runner's clock starts with its tables in hand; a
        scheduler queues matches while the workers play) to the last one recorded; and
        the games as the bare runner plays them again."""
        from django.db import transaction

        from catan_arena.matches.models import Match
        from catan_arena.matches.services import MatchLimits, create_match

        first = Match.objects.order_by("-id").values_list("id", flat=True).first() or 0
        queued: list[float] = []
        with transaction.atomic():
            # runs first of the commit's callbacks, before any match is sent to a worker
            transaction.on_commit(lambda: queued.append(time.perf_counter()))
            for seed in seeds:
                create_match([self.version] * 4, limits=MatchLimits(1.0, 10.0), seed=seed)
        while (left := _unfinished(first)) > 0:
            time.sleep(0.1 if left > self.processes else TAIL_POLL)
        elapsed = time.perf_counter() - queued[0]
        played = list(Match.objects.filter(id__gt=first).order_by("id"))
        assert all(m.status == Match.Status.FINISHED for m in played), "a match did not finish"
        return elapsed, [Table.of(m) for m in played]

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()


def _with_seeds(tables: list[Table], seeds: list[str]) -> list[Table]:
    """``tables``' games with ``seeds`` instead (the bench's games differ in seed only)."""
    return [dataclasses.replace(tables[0], seed=seed) for seed in seeds]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per run (default 30)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args(argv)

    env = _environment()
    os.environ.update(env)
    _fresh_database()
    import django

    django.setup()
    from django.core.management import call_command

    from engine.rng import new_seed

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    print(f"{args.games} games of four random bots per run, full sandbox, fresh bots per game")
    print(f"{'procs':>5} {'bare m/min':>22} {'platform m/min':>22} {'platform/bare':>24}")
    for processes in args.processes:
        bare_rates, platform_rates, ratios = [], [], []
        platform, bare = Platform(processes, env), Bare(processes)
        try:
            _, tables = platform.chunk([new_seed() for _ in range(args.games)])  # warm-up
            bare.chunk(tables, keep_busy=False)
            for repeat in range(args.repeats):
                seeds = [new_seed() for _ in range(args.games)]
                if repeat % 2:
                    bare_seconds = bare.chunk(_with_seeds(tables, seeds), keep_busy=False)
                    platform_seconds, _ = platform.chunk(seeds)
                else:
                    platform_seconds, played = platform.chunk(seeds)
                    bare_seconds = bare.chunk(played, keep_busy=False)
                bare_rates.append(60 * args.games / bare_seconds)
                platform_rates.append(60 * args.games / platform_seconds)
                ratios.append(platform_rates[-1] / bare_rates[-1])
        finally:
            platform.stop()
            bare.stop()
        print(
            f"{processes:>5} {_spread(bare_rates):>22} {_spread(platform_rates):>22} "
            f"{_spread(ratios, '.3f'):>24}",
            flush=True,
        )
    print(f"(min/median/max over repeats; target: platform/bare >= {TARGET_RATIO:.2f})")
    return 0


def _spread(values: list[float], fmt: str = ".1f") -> str:
    return "/".join(format(v, fmt) for v in (min(values), statistics.median(values), max(values)))


if __name__ == "__main__":
    sys.exit(main())
