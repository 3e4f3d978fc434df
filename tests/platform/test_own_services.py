"""The suite talks only to the PostgreSQL and Redis it started (``tests.support.services``),
never to the machine's 5432 and 6379: Django's database is the suite's server (its data
folder, its port), the server mode's broker is the suite's Redis (its pid), and no TCP
connection of this process goes to the machine's ports. The controls: the connection
check sees a connection to a port it is told to watch, and the source check finds a
machine address in a line that has one."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import redis
from django.db import connection

from tests.support.services import MACHINE_PORTS, suite_services

ROOT = Path(__file__).resolve().parents[2]
MACHINE_ADDRESS = re.compile(r"(127\.0\.0\.1|localhost):(5432|6379)\b")
"""How a source would name the machine's own services."""


def connections_to(ports: set[int] | frozenset[int]) -> list[str]:
    """This process's TCP connections whose remote port is one of ``ports``."""
    mine = set()
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[len("socket:[") : -1])
    found = []
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            if fields[9] in mine and remote_port in ports:
                found.append(f"{fields[2]} (socket {fields[9]})")
    return found


@pytest.mark.django_db
def test_the_database_is_the_suites_own(settings: Any) -> None:
    services = suite_services()
    database = settings.DATABASES["default"]
    assert (database["HOST"], int(database["PORT"])) == ("127.0.0.1", services.postgres_port)
    assert services.postgres_port not in MACHINE_PORTS
    with connection.cursor() as cursor:
        cursor.execute("SHOW data_directory")
        (data,) = cursor.fetchone() or ("",)
    assert Path(data) == services.postgres_data  # the server in the suite's temp folder
    assert connections_to({services.postgres_port})  # (what the next test looks for)
    assert not connections_to(MACHINE_PORTS)


@pytest.mark.django_db
def test_the_broker_and_the_workers_database_are_the_suites_own(
    server_mode: dict[str, str], settings: Any
) -> None:
    from catan_arena.celery import app

    services = suite_services()
    broker = urlparse(settings.CELERY_BROKER_URL)
    assert (broker.hostname, broker.port) == ("127.0.0.1", services.redis_port)
    assert app.conf.broker_url == settings.CELERY_BROKER_URL == server_mode["CELERY_BROKER_URL"]
    store = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    assert store.info("server")["process_id"] == services.redis_pid  # the one we started
    assert urlparse(server_mode["DATABASE_URL"]).port == services.postgres_port
    assert connections_to({services.redis_port})
    assert not connections_to(MACHINE_PORTS)
    store.close()


def test_control_a_connection_to_a_watched_port_is_seen() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        assert not connections_to({port})
        with socket.create_connection(("127.0.0.1", port)):
            assert connections_to({port})


def test_no_test_or_benchmark_names_the_machines_services() -> None:
    sources = [*ROOT.joinpath("tests").rglob("*.py"), *ROOT.joinpath("benchmarks").rglob("*.py")]
    named = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources
        if path != Path(__file__)
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if MACHINE_ADDRESS.search(line)
    ]
    assert not named, named
    assert MACHINE_ADDRESS.search('url = "redis://127.0.0.1:6379/12"')  # the control
