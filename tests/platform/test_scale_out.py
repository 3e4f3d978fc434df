"""Scale-out, proven: two worker machines (network namespaces of this test's own, see
``netns.py``) play a ladder and a Swiss tournament through a PostgreSQL and a Redis that
listen on the machines' subnet only; one beat runs on the host (the control machine).
Once both machines have played and m1, frozen (every process of it stopped), holds a
running match, m1 is cut off (its link deleted, every process of it SIGKILLed). Then:
every match finishes exactly once (the lost attempt in its log, named after m1), the
tournament finishes, the ratings equal ``recompute_ratings``, m2 played everything after
the cut, and the time to recover (the cut to the lost match finished on m2) is reported
in ``.artifacts/scale-out/``.

A machine cut off cannot be seen dying from another (the reaper's "dead here" check
compares host names): its match stops beating (``matches.heartbeat``), so the reaper
re-queues it once the heartbeat is ``CATAN_ARENA_HEARTBEAT_TIMEOUT`` old (8 s here), long
before its deadline. The control (``CATAN_SCALE_OUT_CONTROL=1``: the reaper pushed out of
reach) fails: the lost match is still running long past its deadline, so the recovery
is the reaper's work, not luck."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connections
from django.utils import timezone

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.core.queues import ALL_QUEUES
from catan_arena.ladder.models import LadderSettings
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits
from catan_arena.ratings.models import Rating, RatingChange
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.selectors import standings
from catan_arena.tournaments.services import TournamentSpec, create_tournament, enter_tournament
from tests.support import netns
from tests.support.celery_worker import ratings_caught_up
from tests.support.records import active_bots
from tests.support.services import pg_bin, suite_services

pytestmark = [pytest.mark.own_process, pytest.mark.timeout(900)]
ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / ".artifacts" / "scale-out"
DECISION, BANK = 0.05, 0.5  # random-playing bots: each seat's game budget 6.5 s
SEATS = 3
"""Tables of three: a lost match's deadline is every seat's start-up allowance (44 s) and
game budget plus 30 s, so three seats come back ~50 s sooner than four."""
ENTRIES = 6
SETTLE_SECONDS = 0.5
"""Once m1 is frozen, what it sent before (a commit in flight) lands within this."""
TICKS = {
    "CATAN_ARENA_REAPER_SECONDS": "2",
    "CATAN_ARENA_LADDER_TICK_SECONDS": "2",
    "CATAN_ARENA_TOURNAMENT_TICK_SECONDS": "1",
    "CATAN_ARENA_DEADLINE_MARGIN": "1",
    "CATAN_ARENA_HEARTBEAT_SECONDS": "2",
    "CATAN_ARENA_HEARTBEAT_TIMEOUT": "8",  # a silent machine's match is lost after 8 s
    "CATAN_ARENA_VISIBILITY_TIMEOUT": "10",  # the broker hands an unacked task out again
    "CATAN_ARENA_HOUSE_BOTS_ON_LADDER": "false",  # this test's own bots only
}
NO_REAPER = {"CATAN_ARENA_REAPER_SECONDS": "3600"}


@dataclass
class Cluster:
    network: netns.Network
    postgres: netns.Postgres
    redis: netns.Redis
    env: dict[str, str]
    logs: Path
    workers: dict[str, Any]
    beat: netns.HostProcess | None = None

    def tails(self) -> str:
        parts = [f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
                 for path in sorted(self.logs.glob("*.log"))]  # fmt: skip
        return "\n".join(parts)

    def wait(self, condition: Callable[[], bool], seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}\n{self.tails()}")
            time.sleep(0.25)


@pytest.fixture
def cluster(django_db_blocker: Any, tmp_path: Path) -> Iterator[Cluster]:
    """Two machines, PostgreSQL and Redis on their subnet, this process's database
    connection pointed at that PostgreSQL (migrated); all gone at the end."""
    reason = netns.unavailable()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"the scale-out test must run in CI: {reason}")
        pytest.skip(reason)
    cpus = sorted(os.sched_getaffinity(0))
    one_each = [str(cpus[0]), str(cpus[-1])]  # a core per machine (one if there is one)
    with netns.machines_with_services(["m1", "m2"], one_each) as (network, postgres, redis):
        database = "catan_arena"
        netns.run(str(pg_bin() / "createdb"), "-U", "postgres", "-h", str(postgres.folder),
                  "-p", str(postgres.port), database)  # fmt: skip
        connection = connections["default"]
        saved = dict(connection.settings_dict)
        connection.close()
        connection.settings_dict.update(
            NAME=database, HOST=postgres.address, PORT=str(postgres.port), USER="postgres",
            PASSWORD="",
        )  # fmt: skip
        env = dict(os.environ) | {
            "DJANGO_SETTINGS_MODULE": "catan_arena.settings",
            "DATABASE_URL": postgres.url(database),
            "CELERY_BROKER_URL": redis.url(0),
            "CACHE_URL": redis.url(1),
        }
        cluster: Cluster | None = None
        try:
            with django_db_blocker.unblock():
                call_command("migrate", verbosity=0)
                cluster = Cluster(network, postgres, redis, env, tmp_path, {})
                yield cluster
        finally:
            if cluster is not None and cluster.beat is not None:
                cluster.beat.stop()
            connection.close()
            connection.settings_dict.clear()
            connection.settings_dict.update(saved)


def start_worker(cluster: Cluster, name: str, extra: dict[str, str]) -> None:
    machine = cluster.network.machines[name]
    log = cluster.logs / f"worker-{name}.log"
    argv = netns.celery(
        "worker", "--loglevel", "INFO", "--concurrency", "1", "--pool", "prefork",
        "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "-Q", ALL_QUEUES,
    )  # fmt: skip
    process = machine.popen(argv, cluster.env | extra, log)
    netns.wait_output(lambda: log.read_text(errors="replace"), " ready.", 90, process)
    cluster.workers[name] = process


def start_beat(cluster: Cluster, extra: dict[str, str]) -> None:
    """One beat, on the host (the control machine: never on a worker machine that may
    be lost, never a second one)."""
    home = cluster.logs / "host"
    (home / "tmp").mkdir(parents=True)
    env = cluster.env | extra | {"CATAN_ARENA_DATA": str(home), "TMPDIR": str(home / "tmp")}
    argv = netns.celery("beat", "--loglevel", "INFO", "--schedule", str(home / "schedule"))
    cluster.beat = netns.HostProcess(argv, env, cluster.logs / "beat.log")


def can_connect(machine: netns.Machine, env: dict[str, str], host: str, port: int) -> str:
    """What a TCP connection from inside ``machine`` to ``host:port`` gives."""
    code = (
        "import socket, sys\n"
        "try:\n"
        "    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3).close()\n"
        "    print('connected')\n"
        "except OSError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    result = machine.check(["python3", "-c", code, host, str(port)], env)
    return result.stdout.strip() or result.stderr.strip()


def host_address() -> str:
    """The host's own address toward the outside world (its default route's source)."""
    route = subprocess.run(["ip", "-4", "route", "get", "192.0.2.200"], capture_output=True,
                           text=True, check=False).stdout.split()  # fmt: skip
    return route[route.index("src") + 1] if "src" in route else "127.0.0.1"


def check_isolation(cluster: Cluster) -> dict[str, str]:
    """The machines reach their subnet and their own loopback only: from m2, the test's
    PostgreSQL answers; the host's loopback services (the suite's own PostgreSQL and
    Redis: they answer the host, the control), the host's other address and the
    internet do not."""
    m2 = cluster.network.machines["m2"]
    routes = cluster.network.routes(m2)
    assert "default" not in routes and "fe80" not in routes, routes
    services = suite_services()
    loopback = [("127.0.0.1", services.postgres_port), ("127.0.0.1", services.redis_port)]
    seen = {}
    for host, port in [(cluster.postgres.address, cluster.postgres.port), *loopback,
                       (host_address(), 22), (cluster.network.host, services.postgres_port),
                       ("1.1.1.1", 443)]:  # fmt: skip
        seen[f"{host}:{port}"] = can_connect(m2, cluster.env, host, port)
    outcomes = iter(seen.values())
    assert next(outcomes) == "connected", seen
    assert all(outcome != "connected" for outcome in outcomes), seen
    for host, port in loopback:
        with socket.socket() as probe:
            assert probe.connect_ex((host, port)) == 0, f"{host}:{port} does not answer the host"
        seen[f"{host}:{port} from the host"] = "connected"
    return seen


def setup_competition() -> Tournament:
    """Eight authors' bots (random legal play), a ladder of them, and a Swiss
    tournament of six of them due in two seconds (beat starts it)."""
    people = [User.objects.create_user(f"author{i}", password="x-4521-y") for i in range(8)]
    versions = [active_bots(person, 1)[0] for person in people]
    LadderSettings.objects.update_or_create(
        pk=1,
        defaults={"paused": False, "tables_in_flight": 2, "table_size": SEATS,
                  "decision_seconds": DECISION, "time_bank_seconds": BANK},
    )  # fmt: skip
    organizer = grant_role(User.objects.create_user("olga", password="x-4521-y"), ORGANIZERS)
    spec = TournamentSpec(
        "scale-out cup", format="swiss", table_size=SEATS, rounds=2,
        limits=MatchLimits(DECISION, BANK), starts_at=timezone.now() + timedelta(seconds=2),
    )  # fmt: skip
    cup = create_tournament(organizer, spec, open_entries=True)
    for person, version in zip(people[:ENTRIES], versions[:ENTRIES], strict=True):
        enter_tournament(person, cup, version)
    return cup


def finished_on(machine: str) -> int:
    return Match.objects.filter(status="finished", worker__startswith=f"{machine}:").count()


def started(attempt: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(attempt["started"])


def run_scenario(cluster: Cluster, *, reaper: bool) -> dict[str, Any]:
    extra = TICKS | ({} if reaper else NO_REAPER)
    isolation = check_isolation(cluster)
    cup = setup_competition()
    began = time.monotonic()
    start_worker(cluster, "m1", extra)
    start_worker(cluster, "m2", extra)
    start_beat(cluster, extra)

    m1 = cluster.network.machines["m1"]
    held: list[Match] = []

    def holds_a_match() -> Match | None:
        return Match.objects.filter(status="running", worker__startswith="m1:").first()

    def frozen_holding_a_match() -> bool:
        """Both machines played and m1, frozen (every process of it stopped, so that no
        match of it can end before the cut), holds a running match. A match of random
        bots lasts seconds: one seen running could end between a look and the cut, as one
        did in CI twice, so m1 is stopped first and looked at after its last writes land;
        if it holds nothing then, it runs on and the wait goes on."""
        if finished_on("m1") < 1 or finished_on("m2") < 1 or holds_a_match() is None:
            return False
        stopped = cluster.network.freeze(m1)
        time.sleep(SETTLE_SECONDS)
        held[:] = [match] if (match := holds_a_match()) else []
        if not held:
            cluster.network.thaw(stopped)
        return bool(held)

    cluster.wait(frozen_holding_a_match, 120, "both machines to play and m1 to hold a match")
    cluster.network.cut(m1)
    cut_at = timezone.now()
    lost = held[0]
    lost.refresh_from_db()
    assert lost.status == "running", f"match {lost.pk} ended while m1 was frozen"
    assert lost.deadline is not None
    budget = (lost.deadline - cut_at).total_seconds()
    report: dict[str, Any] = {
        "lost_match": lost.pk,
        "lost_match_kind": "tournament" if lost.tournament_id else "ladder",
        "seconds_to_deadline_at_cut": round(budget, 1),
        "finished_before_cut": {m: finished_on(m) for m in ("m1", "m2")},
        "from_m2": isolation,
    }

    def recovered() -> bool:
        lost.refresh_from_db()
        return lost.status == "finished"

    cluster.wait(recovered, budget + 90, f"the lost match {lost.pk} to finish again")
    assert lost.finished_at is not None
    report["recovery_seconds"] = round((lost.finished_at - cut_at).total_seconds(), 1)

    def tournament_over() -> bool:
        cup.refresh_from_db()
        return cup.status == Tournament.Status.FINISHED

    cluster.wait(tournament_over, 150, "the tournament to finish on m2")
    LadderSettings.objects.filter(pk=1).update(paused=True)
    in_flight = Match.objects.filter(status__in=("queued", "running"))
    cluster.wait(lambda: not in_flight.exists(), 90, "the ladder's matches in flight")
    cluster.wait(ratings_caught_up, 60, "the ladder's matches rated (on the quick queue)")
    report["seconds_total"] = round(time.monotonic() - began, 1)
    for name, machine in cluster.network.machines.items():  # each used its own folders
        cache = Path(machine.folders["CATAN_ARENA_DATA"], "bot-cache")
        assert cache.is_dir() and any(cache.iterdir()), name
    check_outcome(lost, cut_at, cup, report)
    return report


def check_outcome(lost: Match, cut_at: datetime, cup: Tournament, report: dict[str, Any]) -> None:
    matches = list(Match.objects.prefetch_related("seats"))
    after_cut = 0
    for match in matches:
        outcomes = [a["outcome"] for a in match.attempt_log]
        assert match.status == "finished", (match.pk, match.status, outcomes)
        assert outcomes.count("finished") == 1, (match.pk, outcomes)
        assert all(seat.placing is not None for seat in match.seats.all()), match.pk
        for attempt in match.attempt_log:
            if attempt["started"] and started(attempt) > cut_at:
                after_cut += 1
                assert attempt["worker"].startswith("m2:"), (match.pk, attempt)
        if match.ladder:
            assert RatingChange.objects.filter(match=match).count() == len(match.seats.all())
    trail = [(a["worker"].split(":")[0], a["outcome"]) for a in lost.attempt_log]
    assert len(trail) == 2 and trail[0][0] == "m1" and trail[0][1].startswith("lost"), trail
    assert "heartbeat" in trail[0][1], trail  # found silent, not waited out to the deadline
    assert trail[1] == ("m2", "finished"), trail
    others = [m for m in matches if m.pk != lost.pk]
    assert all(a["worker"].startswith(("m1:", "m2:")) for m in matches for a in m.attempt_log)
    assert all(len(m.attempt_log) == 1 for m in others), [
        (m.pk, m.attempt_log) for m in others if len(m.attempt_log) != 1
    ]
    assert cup.status == Tournament.Status.FINISHED
    tables = cup.matches.count()
    assert tables == 2 * ENTRIES // SEATS, tables  # two rounds
    assert sum(row.games for row in standings(cup)) == tables * SEATS
    before = sorted(Rating.objects.values_list("version_id", "elo", "mu", "sigma", "games"))
    call_command("recompute_ratings", verbosity=0)
    after = sorted(Rating.objects.values_list("version_id", "elo", "mu", "sigma", "games"))
    assert before == after
    report |= {
        "matches": len(matches),
        "ladder_matches": sum(m.ladder for m in matches),
        "tournament_matches": tables,
        "attempts_after_cut_all_on_m2": after_cut,
        "finished_on": {m: finished_on(m) for m in ("m1", "m2")},
    }


def write_report(report: dict[str, Any]) -> None:
    REPORT.mkdir(parents=True, exist_ok=True)
    report["at"] = timezone.now().isoformat(timespec="seconds")
    (REPORT / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    with open(REPORT / "runs.jsonl", "a") as runs:
        runs.write(json.dumps(report) + "\n")
    print("\nscale-out:", json.dumps(report))


def test_a_machine_cut_off_mid_match_loses_and_doubles_nothing(cluster: Cluster) -> None:
    # the control: CATAN_SCALE_OUT_CONTROL=1 pushes the reaper out of reach, and this
    # test fails waiting for the lost match (it stays running past its deadline)
    control = bool(os.environ.get("CATAN_SCALE_OUT_CONTROL"))
    report = run_scenario(cluster, reaper=not control)
    write_report(report)
    # the deadline bounds the recovery: the reaper's tick, m2's queue and one replay after it
    assert report["recovery_seconds"] <= report["seconds_to_deadline_at_cut"] + 60, report
