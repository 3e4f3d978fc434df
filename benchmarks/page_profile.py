"""``make bench-pages``: every page's server time and queries on a big, idle database.

A fresh PostgreSQL database (the test suite's own server) gets eight authors' bots,
``--history`` finished matches (10,000 by default) and a finished round robin of the
eight (280 games) as ``make bench-load`` makes them, and ``--ladder`` of the history
rated as ladder matches (``recompute_ratings``). Each page is then asked ``--repeat``
times by Django's test client after a first view: printed, per page, the first, median and worst
times in milliseconds, the queries and the slowest query's time. No load: what
one request costs (``make bench-load`` measures the pages under load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
PROFILE_DB = "catan_arena_pages"


def fresh_database() -> None:
    import psycopg

    from tests.support.services import suite_services

    with psycopg.connect(suite_services().postgres_url(), autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {PROFILE_DB} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {PROFILE_DB}")


def build(history: int, ladder: int) -> tuple[list[str], list[int], int]:
    """The database: bot names, match ids, the tournament's id."""
    from django.core.management import call_command

    from benchmarks.load_test import AUTHORS, add_history
    from catan_arena.accounts.models import User
    from catan_arena.matches.models import Match
    from tests.support.records import active_bots

    call_command("migrate", verbosity=0)
    versions = [
        active_bots(User.objects.create_user(f"author{i}", password="pages-4521-x"), 1)[0]
        for i in range(AUTHORS)
    ]
    matches, cup = add_history(versions, history)
    Match.objects.filter(pk__in=matches[:ladder]).update(ladder=True)
    call_command("recompute_ratings", verbosity=0)
    return [v.bot.name for v in versions], matches, cup


def existing() -> tuple[list[str], int, int]:
    """The last run's bot names, newest history match and tournament."""
    from catan_arena.matches.models import Match
    from catan_arena.submissions.models import Bot
    from catan_arena.tournaments.models import Tournament

    match = Match.objects.filter(tournament=None).order_by("-id").values_list("id", flat=True)
    cup = Tournament.objects.values_list("id", flat=True)
    return list(Bot.objects.order_by("id").values_list("name", flat=True)), match[0], cup[0]


def measure(urls: dict[str, str], repeat: int, show: bool = False) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="localhost")
    print(f"{'page':<14}{'first ms':>9}{'median ms':>10}{'max ms':>9}{'queries':>9}"
          f"{'slowest q ms':>14}")  # fmt: skip
    for name, url in urls.items():
        began = time.perf_counter()
        assert client.get(url).status_code == 200, url  # the first view fills the caches
        first = 1000 * (time.perf_counter() - began)
        times, queries, slowest = [], 0, 0.0
        for _ in range(repeat):
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                client.get(url)
                times.append(1000 * (time.perf_counter() - began))
            queries = len(captured)
            slowest = max([slowest] + [1000 * float(q["time"]) for q in captured])
        if show:
            for q in captured:
                print(f"    {1000 * float(q['time']):7.1f} ms  {q['sql'][:160]}")
        print(
            f"{name:<14}{first:>9.1f}{statistics.median(times):>10.1f}{max(times):>9.1f}"
            f"{queries:>9}{slowest:>14.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--history", type=int, default=10_000)
    parser.add_argument("--ladder", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=6)
    parser.add_argument("--queries", action="store_true", help="print each page's queries")
    parser.add_argument("--reuse", action="store_true", help="the database of the last run")
    args = parser.parse_args(argv)

    from benchmarks.load_test import environment
    from tests.support.services import suite_services

    env = environment() | {"DATABASE_URL": suite_services().postgres_url(PROFILE_DB)}
    env.pop("CELERY_BROKER_URL")  # nothing is played: no broker, nothing dispatched
    os.environ.update(env)
    if not args.reuse:
        fresh_database()
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command

    call_command("collectstatic", verbosity=0, interactive=False)
    if args.reuse:
        bots, match, cup = existing()
    else:
        names, matches, cup = build(args.history, args.ladder)
        bots, match = names, matches[-1]
    cache.clear()
    measure(
        {
            "home": "/",
            "ladder": "/ladder/",
            "bot": f"/bots/{bots[0]}/",
            "matches": "/matches/?page=7",
            "match": f"/matches/{match}/",
            "replay step": f"/matches/{match}/replay/?step=200",
            "tournament": f"/tournaments/{cup}/",
            "tournaments": "/tournaments/",
            "api ladder": "/api/v1/ladder/",
            "api match": f"/api/v1/matches/{match}/",
        },
        args.repeat,
        args.queries,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
