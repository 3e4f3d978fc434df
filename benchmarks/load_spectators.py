"""Simulated spectators for the load test (locust, as a library, in a process of its
own: gevent patches the interpreter). Each spectator browses the home page, the ladder,
match lists and pages, replays at random steps, bot pages, a tournament, a running
match's live view and the API, with a pause of 0.5-2 s between pages.

    python benchmarks/load_spectators.py --host URL --users N --targets FILE --out FILE

runs until SIGTERM (or ``--seconds``), then writes JSON: per page, the requests,
failures, client latency p50/p95/p99 and the server's own time (``Server-Timing``)
median and p95, all in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import statistics
import sys
from pathlib import Path
from typing import Any

import gevent
from locust import HttpUser, between, events, task
from locust.env import Environment

TARGETS: dict[str, Any] = {}
SERVER_MS: dict[str, list[float]] = {}
TIMING = re.compile(r"app;dur=([0-9.]+)")


@events.request.add_listener  # type: ignore[untyped-decorator]
def _server_time(name: str, response: Any = None, exception: Any = None, **_: Any) -> None:
    if response is None or exception is not None:
        return
    found = TIMING.search(response.headers.get("Server-Timing", ""))
    if found:
        SERVER_MS.setdefault(name, []).append(float(found.group(1)))


class Spectator(HttpUser):
    wait_time = between(0.5, 2.0)

    def _match(self) -> int:
        return int(random.choice(TARGETS["matches"]))

    @task(3)
    def home(self) -> None:
        self.client.get("/", name="home")

    @task(4)
    def ladder(self) -> None:
        self.client.get("/ladder/", name="ladder")

    @task(2)
    def match_list(self) -> None:
        self.client.get(f"/matches/?page={random.randint(1, 50)}", name="matches")

    @task(6)
    def match_page(self) -> None:
        self.client.get(f"/matches/{self._match()}/", name="match")

    @task(4)
    def replay(self) -> None:
        step = random.randint(0, 400)
        self.client.get(f"/matches/{self._match()}/replay/?step={step}", name="replay step")

    @task(2)
    def bot(self) -> None:
        self.client.get(f"/bots/{random.choice(TARGETS['bots'])}/", name="bot")

    @task(2)
    def tournament(self) -> None:
        self.client.get(f"/tournaments/{random.choice(TARGETS['tournaments'])}/",
                        name="tournament")  # fmt: skip

    @task(2)
    def live(self) -> None:
        running = self.client.get("/api/v1/matches/?status=running", name="api matches running")
        results = running.json().get("results", []) if running.ok else []
        if results:
            pk = random.choice(results)["id"]
            self.client.get(f"/matches/{pk}/live/data/?since=0", name="live data")

    @task(3)
    def api(self) -> None:
        self.client.get("/api/v1/ladder/", name="api ladder")
        self.client.get(f"/api/v1/matches/{self._match()}/", name="api match")

    @task(1)
    def api_replay(self) -> None:
        self.client.get(f"/api/v1/matches/{self._match()}/replay/", name="api replay",
                        headers={"Accept-Encoding": "gzip"})  # fmt: skip


def summary(env: Environment) -> dict[str, Any]:
    pages: dict[str, Any] = {}
    for (name, _method), entry in sorted(env.stats.entries.items()):
        server = sorted(SERVER_MS.get(name, []))
        pages[name] = {
            "requests": entry.num_requests,
            "failures": entry.num_failures,
            "p50": entry.get_response_time_percentile(0.50),
            "p95": entry.get_response_time_percentile(0.95),
            "p99": entry.get_response_time_percentile(0.99),
            "server_median": statistics.median(server) if server else None,
            "server_p95": server[int(0.95 * (len(server) - 1))] if server else None,
        }
    total = env.stats.total
    return {
        "pages": pages,
        "requests": total.num_requests,
        "failures": total.num_failures,
        "p50": total.get_response_time_percentile(0.50),
        "p95": total.get_response_time_percentile(0.95),
        "p99": total.get_response_time_percentile(0.99),
        "errors": [str(e.error)[:200] for e in list(env.stats.errors.values())[:10]],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", required=True)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--targets", type=Path, required=True, help="JSON: matches, bots")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seconds", type=float, default=3600.0)
    args = parser.parse_args(argv)
    TARGETS.update(json.loads(args.targets.read_text()))
    Spectator.host = args.host
    env = Environment(user_classes=[Spectator], events=events)
    runner = env.create_local_runner()
    runner.start(args.users, spawn_rate=args.users)
    gevent.signal_handler(signal.SIGTERM, runner.quit)
    gevent.spawn_later(args.seconds, runner.quit)
    assert runner.greenlet is not None
    runner.greenlet.join()
    args.out.write_text(json.dumps(summary(env), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
