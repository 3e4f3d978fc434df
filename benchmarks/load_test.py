"""``make bench-load``: the platform under load, on loopback, with nothing lost.

A fresh PostgreSQL database gets eight authors' bots (validated by the workers) and
``--history`` finished matches (10,000 by default: the pages must stay fast on a big
database); then ``--matches`` ladder matches (1,000) are queued through Redis to two
real ``celery worker`` processes while ``--spectators`` simulated spectators (locust,
``load_spectators.py``) browse the site and the API served by gunicorn (production
settings: DEBUG off, static files by whitenoise).

Reported: matches per minute; per page the client latency p50/p95/p99 and the server's
own time (``Server-Timing``) median and p95. Checked, or the run fails: every queued
match finished exactly once (one "finished" attempt), with a replay whose sha256 matches
and every seat placed; each ladder match moved every seat's rating once; the ratings
equal ``recompute_ratings``'s; no page answered 5xx.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
LOAD_DB = "catan_arena_load"
AUTHORS = 8


def environment() -> dict[str, str]:
    """On the test suite's own PostgreSQL and Redis (``tests.support.services``: started
    here, and stopped at exit, unless the suite that runs this already has them)."""
    from tests.support.services import suite_services

    services = suite_services()
    return {
        "DATABASE_URL": services.postgres_url(LOAD_DB),
        "CELERY_BROKER_URL": services.redis_url(13),
        "CACHE_URL": services.redis_url(12),
        "CATAN_ARENA_DATA": tempfile.mkdtemp(prefix="catan-load-"),
        "DJANGO_SECRET_KEY": "load-test-only-" + "x" * 40,
        "DJANGO_DEBUG": "false",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SETTINGS_MODULE": "catan_arena.settings",
        "CATAN_ARENA_WARM_SANDBOXES": "4",
        "CATAN_ARENA_STATIC_MANIFEST": "true",  # as the image: collectstatic, hashed names
    }


def fresh_database() -> None:
    import psycopg

    from tests.support.services import suite_services

    with psycopg.connect(suite_services().postgres_url(), autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {LOAD_DB} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {LOAD_DB}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def authors_bots(worker_log: Any) -> list[Any]:
    """Eight authors' bots, uploaded and validated by the workers."""
    from catan_arena.accounts.models import User
    from catan_arena.submissions.models import BotVersion
    from catan_arena.submissions.services import upload_version
    from tests.support.bots import VALID_BOT  # a random legal action, never a trade offer

    versions = []
    for i in range(AUTHORS):
        author = User.objects.create_user(f"author{i}", password="load-4521-test")
        source = VALID_BOT + f"# author {i}\n".encode()
        versions.append(upload_version(author, f"wanderer-{i}", "bot.py", source).version)
    deadline = time.monotonic() + 300
    ids = [v.pk for v in versions]
    while BotVersion.objects.filter(pk__in=ids, status="active").count() < len(ids):
        if time.monotonic() > deadline:
            raise SystemExit(f"bots not validated in time:\n{worker_log()[-4000:]}")
        time.sleep(0.5)
    return list(BotVersion.objects.filter(pk__in=ids).select_related("bot").order_by("pk"))


def add_history(versions: list[Any], count: int) -> tuple[list[int], int]:
    """``count`` finished exhibition matches (not rated) and a finished round robin of
    every version (tables of four in every seat rotation), all sharing one real replay;
    returns the matches' ids and the tournament's. Written behind the services' back
    (bulk inserts), so the pages' statistics are then rebuilt from the history
    (``manage.py recompute_page_stats``), as the migration that made them did, and the
    tournament's standings table computed, as a recorded result's receiver does."""
    from django.core.management import call_command

    from catan_arena.tournaments.models import Entry, Tournament
    from catan_arena.tournaments.selectors import refresh_standings_table

    blob, sha, result = _one_replay()
    tables = [[versions[(k + s) % len(versions)] for s in range(4)] for k in range(count)]
    made = _finished_matches(tables, blob, sha, result)
    cup = Tournament.objects.create(name="load cup", status=Tournament.Status.FINISHED,
                                    decision_seconds=1.0, time_bank_seconds=10.0)  # fmt: skip
    Entry.objects.bulk_create(Entry(tournament=cup, version=v) for v in versions)
    cup_tables = [
        [group[(r + s) % 4] for s in range(4)]
        for group in itertools.combinations(versions, 4)
        for r in range(4)
    ]
    _finished_matches(cup_tables, blob, sha, result, tournament=cup)
    call_command("recompute_page_stats", verbosity=0)
    refresh_standings_table(cup.pk)  # as its receiver does once a result is committed
    return made, cup.pk


def _one_replay() -> tuple[bytes, str, Any]:
    from arena_runner import InProcessDriver, play_match
    from bots.registry import load_player_class
    from engine import RulesConfig

    player = load_player_class("random")
    drivers = [InProcessDriver(player, name=f"random{i}") for i in range(4)]
    result = play_match(RulesConfig(), "history", drivers, one_cpu=False)
    from catan_arena.matches import replay_blob

    blob, sha = replay_blob.pack(result.replay.to_dict())
    return blob, sha, result


def _finished_matches(
    tables: list[list[Any]], blob: bytes, sha: str, result: Any, tournament: Any = None
) -> list[int]:
    """One finished match per table (versions in seat order), 1,000 rows at a time."""
    from django.utils import timezone

    from catan_arena.matches.models import Match, MatchSeat
    from engine import RulesConfig
    from engine.rng import new_seed

    now = timezone.now()
    made: list[int] = []
    for start in range(0, len(tables), 1000):
        chunk = tables[start : start + 1000]
        batch = [
            Match(seed=new_seed(), rules=RulesConfig().to_dict(), decision_seconds=1.0,
                  game_seconds=120.0, status="finished", attempts=1, replay=blob,
                  replay_sha256=sha, turns=result.outcome.turns, termination="victory",
                  winner_seat=result.winner, started_at=now, finished_at=now,
                  tournament=tournament, round=1 if tournament else None)
            for _ in chunk
        ]  # fmt: skip
        rows = Match.objects.bulk_create(batch)
        seats = [
            MatchSeat(match=match, seat=s, version=version, won=result.winner == s,
                      points=result.outcome.points[s], placing=result.placings[s])
            for match, table in zip(rows, chunk, strict=True)
            for s, version in enumerate(table)
        ]  # fmt: skip
        MatchSeat.objects.bulk_create(seats)
        made += [m.pk for m in rows]
    return made


def pause_matchmaker() -> None:
    """The load test queues its own ladder matches: the matchmaker's top-ups (after each
    recorded ladder match, after each version made active) would add matches of their
    own, still playing while the ratings are compared with the recompute."""
    from catan_arena.ladder.models import LadderSettings

    LadderSettings.objects.filter(pk=LadderSettings.current().pk).update(paused=True)


def queue_ladder_matches(versions: list[Any], count: int) -> list[int]:
    """``count`` ladder matches of four different authors' bots, queued to Celery."""
    import random

    from django.db import transaction

    from catan_arena.matches.services import MatchLimits, create_match

    pick = random.Random(2026)
    ids = []
    for start in range(0, count, 100):
        with transaction.atomic():  # queued on commit, 100 at a time
            for _ in range(min(100, count - start)):
                table = pick.sample(versions, 4)
                ids.append(create_match(table, limits=MatchLimits(1.0, 10.0), ladder=True).pk)
    return ids


def wait_until_done(ids: list[int], timeout: float) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from catan_arena.matches.models import Match

    mine = Match.objects.filter(pk__in=ids)
    deadline = time.monotonic() + timeout
    with Progress("matches", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
        job = bar.add_task("played", total=len(ids))
        while True:
            done = mine.exclude(status__in=("queued", "running")).count()
            bar.update(job, completed=done)
            if done == len(ids) or time.monotonic() > deadline:
                return
            time.sleep(1.0)


def check_nothing_lost(ids: list[int]) -> dict[str, Any]:
    """Every match finished exactly once, with its replay and its rating updates; the
    ratings equal the recompute. Returns the figures; ``failures`` lists what did not."""
    from django.core.management import call_command

    from catan_arena.matches import replay_blob
    from catan_arena.matches.models import Match
    from catan_arena.ratings.models import Rating, RatingChange
    from catan_arena.ratings.selectors import awaiting_rating

    failures: list[str] = []
    deadline = time.monotonic() + 60  # ratings are applied on the quick queue after commit
    while awaiting_rating().exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    matches = Match.objects.filter(pk__in=ids).prefetch_related("seats")
    statuses = Counter(m.status for m in matches)
    changes = Counter(
        RatingChange.objects.filter(match_id__in=ids).values_list("match_id", flat=True)
    )
    for match in matches:
        finished = [a for a in match.attempt_log if a["outcome"] == "finished"]
        if match.status != "finished" or len(finished) != 1:
            failures.append(f"match {match.pk}: {match.status}, {len(finished)} finished attempts")
            continue
        assert match.replay is not None  # a finished match has its replay
        payload = replay_blob.json_bytes(bytes(match.replay))
        if hashlib.sha256(payload).hexdigest() != match.replay_sha256:
            failures.append(f"match {match.pk}: replay does not match its sha256")
        seats = list(match.seats.all())
        if any(s.placing is None for s in seats):
            failures.append(f"match {match.pk}: a seat without a placing")
        if changes[match.pk] != len(seats):
            failures.append(f"match {match.pk}: {changes[match.pk]} rating updates")
    fields = ("version_id", "elo", "mu", "sigma", "games", "wins")
    before = sorted(Rating.objects.values_list(*fields))
    call_command("recompute_ratings", verbosity=0)
    after = sorted(Rating.objects.values_list(*fields))
    if before != after:
        failures.append("the ratings differ from recompute_ratings")
    started = min(m.started_at for m in matches if m.started_at)
    ended = max(m.finished_at for m in matches if m.finished_at)
    minutes = (ended - started).total_seconds() / 60
    retried = sum(1 for m in matches if m.attempts > 1)
    return {
        "matches": len(ids),
        "statuses": dict(statuses),
        "retried": retried,
        "rating_updates": sum(changes.values()),
        "matches_per_minute": round(len(ids) / minutes, 1) if minutes else None,
        "minutes": round(minutes, 2),
        "failures": failures,
    }


def start_web(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    log = open(Path(env["CATAN_ARENA_DATA"]) / "gunicorn.log", "wb")  # noqa: SIM115
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "catan_arena.wsgi", "--pythonpath", "platform",
         "--bind", f"127.0.0.1:{port}", "--workers", "2", "--threads", "2",
         "--keep-alive", "75"],  # spectators pause 0.5-2 s: past gunicorn's 2 s a reused
                                 # connection can be closed just as a request is sent
        cwd=ROOT, env=os.environ | env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=2):
                return web
        except OSError:
            time.sleep(0.3)
    web.kill()
    raise SystemExit("gunicorn did not answer /health/")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--history", type=int, default=10_000)
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / ".artifacts" / "load" / "report.json")
    args = parser.parse_args(argv)

    env = environment()
    os.environ.update(env)
    fresh_database()
    import django

    django.setup()
    import redis
    from django.core.management import call_command

    from tests.support.celery_worker import CeleryWorker

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    workers = [CeleryWorker(env, concurrency=1) for _ in range(args.workers)]
    web = spectators = None
    try:
        pause_matchmaker()
        print(f"validating {AUTHORS} authors' bots on {args.workers} workers…")
        versions = authors_bots(workers[0].output)
        print(f"adding {args.history:,} finished matches of history…")
        history, cup = add_history(versions, args.history)
        port = free_port()
        web = start_web(env, port)
        targets = Path(env["CATAN_ARENA_DATA"]) / "targets.json"
        targets.write_text(json.dumps({"matches": history[-2000:], "tournaments": [cup],
                                       "bots": [v.bot.name for v in versions]}))  # fmt: skip
        stats = Path(env["CATAN_ARENA_DATA"]) / "spectators.json"
        spectators = subprocess.Popen(
            [sys.executable, str(ROOT / "benchmarks" / "load_spectators.py"),
             "--host", f"http://127.0.0.1:{port}", "--users", str(args.spectators),
             "--targets", str(targets), "--out", str(stats)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        print(f"queueing {args.matches:,} ladder matches; {args.spectators} spectators browse")
        ids = queue_ladder_matches(versions, args.matches)
        wait_until_done(ids, timeout=120 + 3.0 * args.matches)
        spectators.send_signal(signal.SIGTERM)
        spectators.wait(60)
        load = json.loads(stats.read_text())
        result = check_nothing_lost(ids)
    finally:
        for process in (spectators, web):
            if process is not None and process.poll() is None:
                process.kill()
        for worker in workers:
            worker.stop()
    report = {"spectators": args.spectators, "history": args.history, **result, "load": load}
    server_errors = load["failures"]
    if server_errors:
        result["failures"].append(f"{server_errors} failed requests: {load['errors']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    print_report(report)
    return 1 if result["failures"] else 0


def print_report(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"{report['matches']:,} matches ({report['statuses']}), {report['retried']} retried, "
        f"{report['matches_per_minute']} matches/min over {report['minutes']} min; "
        f"{report['rating_updates']:,} rating updates; {report['history']:,} matches of history"
    )
    table = Table(title=f"{report['spectators']} spectators: milliseconds")
    for column in ("page", "requests", "fail", "p50", "p95", "p99", "server med", "server p95"):
        table.add_column(column, justify="right")
    for name, row in report["load"]["pages"].items():
        table.add_row(name, str(row["requests"]), str(row["failures"]), str(row["p50"]),
                      str(row["p95"]), str(row["p99"]), str(row["server_median"]),
                      str(row["server_p95"]))  # fmt: skip
    console.print(table)
    for failure in report["failures"][:20]:
        console.print(f"[red]FAILED[/]: {failure}")
    if not report["failures"]:
        console.print("nothing lost, nothing counted twice, no failed request")


if __name__ == "__main__":
    sys.exit(main())
