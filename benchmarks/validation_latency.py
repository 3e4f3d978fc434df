"""``make bench-validation``: seconds from an upload to its verdict while every match
worker is busy with long matches, in both modes, side by side in one run:

- embedded default: ``manage.py serve --workers 1`` (SQLite, no broker), the match
  worker held by slow matches and the ladder, its validation worker free;
- server mode: PostgreSQL + Redis, one ``celery worker -Q celery`` held the same way
  and one ``celery worker -Q validation`` reserved for uploads, with beat.

Uploads arrive every few seconds through ``upload_version`` (what the form and the API
call); the figures are p50 / p95 / max of the seconds to ``active`` (goal: p95 < 15 s).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
BENCH_DB = "catan_arena_bench_validation"
SLOW_BOT = b"""
import time
from bots import Player


class Slow(Player):
    def act(self, observation):
        time.sleep(0.2)
        legal = observation.legal_actions
        plain = [a for a in legal if type(a).__name__ != "ProposeTrade"] or legal
        return self.rng.choice(plain)
"""
FRESH_BOT = b"""
from bots import Player


class Fresh(Player):
    def act(self, observation):
        return self.rng.choice(observation.legal_actions)
"""


def _clean_env() -> dict[str, str]:
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_URL", "CELERY_", "DJANGO_", "CATAN_ARENA_"))
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip


def _wait_for_line(log: Path, text: str, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in log.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise TimeoutError(f"{text!r} not seen in {log}:\n{log.read_text()[-3000:]}")


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def measure(uploads: int, every: float) -> list[float]:
    """In this (child) process, Django already configured by the environment: hold the
    match slots with slow matches, then upload and time each verdict."""
    import django

    django.setup()
    from catan_arena.accounts.models import User
    from catan_arena.matches.models import Match
    from catan_arena.matches.services import MatchLimits, create_match
    from catan_arena.submissions.models import BotVersion
    from catan_arena.submissions.services import upload_version

    slow = []
    for n in range(3):
        owner = User.objects.create_user(f"slow-author-{n}")
        version = upload_version(owner, f"slow-{n}", "slow.py", SLOW_BOT).version
        BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
        slow.append(BotVersion.objects.get(pk=version.pk))
    for _ in range(4):
        create_match(slow, limits=MatchLimits(1.0, 5.0))
    deadline = time.monotonic() + 60
    while not Match.objects.filter(status=Match.Status.RUNNING).exists():
        if time.monotonic() > deadline:
            raise TimeoutError("no match started")
        time.sleep(0.2)
    author = User.objects.create_user("uploader")
    pending: dict[int, float] = {}
    took: list[float] = []
    for n in range(uploads):
        source = FRESH_BOT + f"# upload {n}\n".encode()
        version = upload_version(author, f"fresh-{n}", "fresh.py", source).version
        pending[version.pk] = time.monotonic()
        end = time.monotonic() + every
        while time.monotonic() < end or (n == uploads - 1 and pending):
            for pk, status in BotVersion.objects.filter(pk__in=list(pending)).values_list(
                "pk", "status"
            ):
                if status in ("active", "rejected"):
                    took.append(time.monotonic() - pending.pop(pk))
            if time.monotonic() > end + 120:
                raise TimeoutError(f"{len(pending)} uploads never validated")
            time.sleep(0.05)
    busy = Match.objects.filter(status=Match.Status.RUNNING).count()
    print(f"# match slots busy at the end: {busy}", file=sys.stderr)
    return took


def run_embedded(uploads: int, every: float) -> list[float]:
    data = Path(tempfile.mkdtemp(prefix="catan-bench-val-"))
    env = _clean_env() | {"CATAN_ARENA_DATA": str(data)}
    log = data / "serve.log"
    serve = _start(
        [sys.executable, "manage.py", "serve", "--workers", "1", "--port", str(_free_port())],
        env, log,
    )  # fmt: skip
    try:
        _wait_for_line(log, "is running at")
        return _child(env | {"DJANGO_SETTINGS_MODULE": "catan_arena.settings"}, uploads, every)
    finally:
        _stop([serve])


def run_server(uploads: int, every: float) -> list[float]:
    import psycopg
    import redis

    from tests.support.services import suite_services  # started here unless the suite has them

    services = suite_services()
    broker = services.redis_url(13)
    with psycopg.connect(services.postgres_url(), autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {BENCH_DB}")
    redis.Redis.from_url(broker).flushdb()
    data = Path(tempfile.mkdtemp(prefix="catan-bench-val-"))
    env = _clean_env() | {
        "DATABASE_URL": services.postgres_url(BENCH_DB),
        "CELERY_BROKER_URL": broker,
        "CATAN_ARENA_DATA": str(data),
        "DJANGO_SECRET_KEY": "bench-only",
        "DJANGO_SETTINGS_MODULE": "catan_arena.settings",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env,
                   check=True)  # fmt: skip
    celery = [sys.executable, "-m", "celery", "-A", "catan_arena", "worker", "--pool",
              "prefork", "--without-gossip", "--without-mingle", "--concurrency", "1",
              "--loglevel", "INFO"]  # fmt: skip
    started = [
        _start([*celery, "-Q", "celery", "-n", "matches@%h", "-B", "--schedule",
                str(data / "beat")], env, data / "matches.log"),
        _start([*celery, "-Q", "validation", "-n", "validator@%h"], env, data / "validator.log"),
    ]  # fmt: skip
    try:
        for name in ("matches.log", "validator.log"):
            _wait_for_line(data / name, " ready.")
        return _child(env, uploads, every)
    finally:
        _stop(started)


def _child(env: dict[str, str], uploads: int, every: float) -> list[float]:
    run = subprocess.run(
        [sys.executable, __file__, "--measure", "--uploads", str(uploads), "--every", str(every)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    if run.returncode != 0:
        raise RuntimeError(run.stderr[-4000:])
    sys.stderr.write(run.stderr[-500:])
    took: list[float] = json.loads(run.stdout.strip().splitlines()[-1])
    return took


def _summary(name: str, took: list[float]) -> str:
    ordered = sorted(took)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"{name:>9}: {len(took)} uploads, seconds to the verdict p50 "
        f"{statistics.median(ordered):.2f} / p95 {p95:.2f} / max {ordered[-1]:.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=12)
    parser.add_argument("--every", type=float, default=3.0, help="seconds between uploads")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.uploads, args.every)))
        return 0
    print("validation latency with every match worker busy (this machine, one run)")
    results: dict[str, Any] = {
        "embedded": run_embedded(args.uploads, args.every),
        "server": run_server(args.uploads, args.every),
    }
    for name, took in results.items():
        print(_summary(name, took))
    return 0


if __name__ == "__main__":
    sys.exit(main())
