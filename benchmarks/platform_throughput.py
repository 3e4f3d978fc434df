"""``make bench-platform``: matches per minute through the platform's real Celery path
(Redis, PostgreSQL, ``celery worker`` processes, four ``random`` bots, full sandbox,
fresh bot processes for every game) side by side with the bare runner (``play_match`` in
a loop in the same number of processes, fresh bot processes per game, same seeds).

Each repeat runs both, alternating which goes first; the ratio platform / bare is
reported as min / median / max over the repeats, with both absolute figures.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
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


def _bare_worker(seeds: list[str]) -> int:
    """One bare-runner process: each seed a game of four fresh sandboxed random bots."""
    from arena_runner import BotRunner, play_match, resolve_policy
    from bots.registry import BUILTINS
    from engine import RulesConfig

    runner = BotRunner(resolve_policy(), warm=4)
    try:
        for seed in seeds:
            drivers = [runner.driver(BUILTINS["random"]) for _ in range(4)]
            try:
                play_match(RulesConfig(), seed, drivers, decision_timeout=1.0, time_bank=10.0)
            finally:
                runner.release_all(drivers)
    finally:
        runner.close()
    return len(seeds)


def run_bare(seeds: list[str], processes: int) -> float:
    """Seconds for the bare runner to play ``seeds`` on ``processes`` processes."""
    shares = [seeds[i::processes] for i in range(processes)]
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        pool.map(_bare_worker, [[]] * processes)  # start-up (imports) outside the clock
        start = time.perf_counter()
        assert sum(pool.map(_bare_worker, shares)) == len(seeds)
        return time.perf_counter() - start


def run_platform(seeds: list[str], processes: int, env: dict[str, str]) -> float:
    """Seconds for ``processes`` celery workers to play ``seeds`` queued as matches."""
    from django.db import transaction

    from catan_arena.matches.models import Match
    from catan_arena.matches.services import MatchLimits, create_match
    from catan_arena.submissions.services import register_builtins
    from tests.support.celery_worker import CeleryWorker

    random_bot = next(v for v in register_builtins() if v.bot.name == "random")
    workers = [CeleryWorker(env, concurrency=1) for _ in range(processes)]
    time.sleep(2.0)  # pool processes start their runners (blank sandboxes) after "ready"
    try:
        first = Match.objects.order_by("-id").values_list("id", flat=True).first() or 0
        start = time.perf_counter()
        with transaction.atomic():
            for seed in seeds:
                create_match([random_bot] * 4, limits=MatchLimits(1.0, 10.0), seed=seed)
        mine = Match.objects.filter(id__gt=first)
        while mine.filter(status__in=("queued", "running")).exists():
            time.sleep(0.1)
        elapsed = time.perf_counter() - start
        assert mine.filter(status="finished").count() == len(seeds), "a match did not finish"
        return elapsed
    finally:
        for worker in workers:
            worker.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per run (default 30)")
    parser.add_argument("--repeats", type=int, default=3)
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
        for repeat in range(args.repeats):
            seeds = [new_seed() for _ in range(args.games)]
            order = ("bare", "platform") if repeat % 2 == 0 else ("platform", "bare")
            seconds = {}
            for which in order:
                if which == "bare":
                    seconds[which] = run_bare(seeds, processes)
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
