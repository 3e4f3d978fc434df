"""``manage.py serve`` (``make serve``), the whole platform on the embedded default as one
process tree: it plays what is queued, Ctrl-C leaves no process behind, a tree killed
with SIGKILL is recovered at the next start, and it refuses, in one line, a data folder
already served or a port in use."""

from __future__ import annotations

import os
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from catan_arena.embedded.guards import DataFolderLock, ServeRefused, check_port_free
from catan_arena.embedded.schedule import Periodic, beat_schedule, run_due
from tests.support.serve_tree import ServeTree, manage, niceness, nicenesses, still_alive, wait_for

pytestmark = pytest.mark.timeout(600)  # longer than the suite's default (pyproject.toml)

SLOW_MATCH = """
from catan_arena.accounts.models import User
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version

SOURCE = b'''
import time
from bots import Player


class Sleepy(Player):
    def act(self, observation):
        time.sleep(0.05)
        legal = observation.legal_actions
        plain = [a for a in legal if type(a).__name__ != "ProposeTrade"] or legal
        return self.rng.choice(plain)
'''
versions = []
for name in ("ada", "grace", "edsger"):
    owner = User.objects.create_user(name, password="not-used-here-4521")
    version = upload_version(owner, f"sleepy-{name}", "sleepy.py", SOURCE).version
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
    versions.append(BotVersion.objects.get(pk=version.pk))
create_match(versions, limits=MatchLimits(1.0, 5.0))
"""
"""Three authors' bots that sleep 50 ms a decision: a match that lasts a while."""
QUIET = {"CATAN_ARENA_HOUSE_BOTS_ON_LADDER": "false", "CATAN_ARENA_LADDER_TICK_SECONDS": "3600"}


def prepared(data: Path) -> Path:
    assert manage(data, "migrate", "--verbosity", "0").returncode == 0
    made = manage(data, "shell", "-c", SLOW_MATCH)
    assert made.returncode == 0, made.stderr
    return data


def match_row(data: Path) -> tuple[str, int, str]:
    with sqlite3.connect(data / "db.sqlite3", timeout=30) as db:
        status, attempts, log = db.execute(
            "SELECT status, attempts, attempt_log FROM matches_match ORDER BY id LIMIT 1"
        ).fetchone()
    return str(status), int(attempts), str(log)


def bot_processes(serve: ServeTree) -> list[int]:
    """The sandboxed bots (bubblewrap) among the tree's processes."""
    found = []
    for pid in serve.tree():
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == "bwrap":
                found.append(pid)
        except OSError:
            continue
    return found


def bots_running(serve: ServeTree) -> bool:
    return bool(bot_processes(serve))


@pytest.fixture
def trees() -> Any:
    started: list[ServeTree] = []
    yield started
    for serve in started:
        serve.stop()


def test_ctrl_c_stops_every_child_and_puts_the_match_back(tmp_path: Path, trees: Any) -> None:
    data = prepared(tmp_path / "data")
    nice = {"CATAN_ARENA_WORKER_NICENESS": "5"}
    serve = ServeTree(data, None, "--workers", "1", **QUIET, **nice).wait_ready()
    trees.append(serve)
    wait_for(lambda: match_row(data)[0] == "running", 60, "the match to start", serve)
    wait_for(lambda: bots_running(serve), 30, "its bots", serve)
    tree = serve.tree()
    assert len(tree) >= 6  # supervisor, web (master + workers), workers, bots
    # the local worker and its bots below the site; the supervisor and the web as started
    assert niceness(serve.process.pid) == os.getpriority(os.PRIO_PROCESS, 0)
    bots = nicenesses(bot_processes(serve))
    assert bots and set(bots.values()) == {5}, serve.output()

    assert serve.interrupt() == 0, serve.output()
    deadline = time.monotonic() + 10
    while still_alive(tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert still_alive(tree) == [], serve.output()
    status, attempts, log = match_row(data)
    assert (status, attempts) == ("queued", 0)  # back in the queue, the attempt not counted
    assert "interrupted" in log
    assert "stopping: work in hand goes back to the queue" in serve.output()


def test_after_kill_9_of_the_tree_the_next_start_carries_on(tmp_path: Path, trees: Any) -> None:
    data = prepared(tmp_path / "data")
    first = ServeTree(data, None, "--workers", "1", **QUIET).wait_ready()
    trees.append(first)
    wait_for(lambda: match_row(data)[0] == "running", 60, "the match to start", first)
    tree = first.tree()
    first.kill_tree()
    time.sleep(0.5)
    assert still_alive(tree) == []
    assert match_row(data)[0] == "running"  # nobody was left to put it back

    second = ServeTree(data, None, "--workers", "1", **QUIET).wait_ready()
    trees.append(second)
    assert "carrying on: 1 match(es) and 0 validation(s)" in second.output()
    wait_for(lambda: match_row(data)[0] == "finished", 180, "the match to finish", second)
    _, attempts, log = match_row(data)
    assert attempts == 1 and "interrupted" in log and log.rstrip("]").endswith('"finished"}')


def test_a_second_serve_or_a_busy_port_is_one_clear_line(tmp_path: Path, trees: Any) -> None:
    data = tmp_path / "data"
    serve = ServeTree(data, None, "--workers", "1", **QUIET).wait_ready()
    trees.append(serve)
    again = manage(data, "serve", "--port", str(serve.port + 1))
    assert again.returncode == 1
    assert again.stderr.strip().count("\n") == 0, again.stderr
    assert "already running on the data folder" in again.stderr
    elsewhere = manage(tmp_path / "other", "serve", "--port", str(serve.port))
    assert elsewhere.returncode == 1
    assert elsewhere.stderr.strip().count("\n") == 0, elsewhere.stderr
    assert f"port {serve.port} on 127.0.0.1 is in use" in elsewhere.stderr
    assert f"make serve PORT={serve.port + 1}" in elsewhere.stderr


def test_the_data_folder_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    first, second = DataFolderLock(tmp_path), DataFolderLock(tmp_path)
    first.acquire()
    with pytest.raises(ServeRefused, match="already running"):
        second.acquire()
    first.release()
    second.acquire()  # free again once released
    second.release()


def test_a_port_in_use_is_refused(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ServeRefused, match="in use"):
            check_port_free("127.0.0.1", port)
    check_port_free("127.0.0.1", port)  # control: the same port, once closed


@pytest.mark.django_db  # run_due closes stale connections between entries
def test_the_scheduler_runs_beats_tasks_when_due(settings: Any) -> None:
    entries = beat_schedule()
    assert {e.name for e in entries} == set(settings.CELERY_BEAT_SCHEDULE)
    for entry in entries:
        task = settings.CELERY_BEAT_SCHEDULE[entry.name]
        assert entry.every == task["schedule"]
        assert f"{entry.run.__module__}.{entry.run.__name__}" == task["task"]  # its own code

    calls: list[str] = []
    fast = Periodic("fast", lambda: calls.append("fast"), every=1.0)
    slow = Periodic("slow", lambda: calls.append("slow"), every=10.0)
    broken = Periodic("broken", lambda: 1 / 0, every=1.0)
    assert run_due([fast, slow, broken], now=100.0) == ["fast", "slow", "broken"]
    assert run_due([fast, slow, broken], now=100.5) == []
    assert run_due([fast, slow, broken], now=101.0) == ["fast", "broken"]  # a failure: again
    assert calls == ["fast", "slow", "fast"]


def test_make_play_beside_a_running_serve_waits_for_every_game(tmp_path: Path, trees: Any) -> None:
    """Both take queued games from one database: the round robin's own workers and the
    serve's; the standings are printed only once every game is played, wherever."""
    data = tmp_path / "data"
    serve = ServeTree(data, None, "--workers", "1", **QUIET).wait_ready()
    trees.append(serve)
    run = manage(
        data, "tournament", "--cycles", "2", "--decision-seconds", "0.3", "--processes", "1"
    )
    assert run.returncode == 0, run.stderr
    assert "6 games finished, 0 failed" in run.stdout, run.stdout
    workers = {
        row[0].split(":")[1]
        for row in sqlite3.connect(data / "db.sqlite3").execute(
            "SELECT worker FROM matches_match WHERE tournament_id IS NOT NULL"
        )
    }
    assert len(workers) == 2, workers  # the serve's worker played some of them
