"""The test suite's own PostgreSQL and Redis: throwaway servers on free ports, their files
in a temp folder, never the machine's 5432 and 6379.

:func:`suite_services` is the one place that knows them. The first process of a pytest
invocation that loads the test settings (the xdist controller, or the only process)
starts them, describes them to every later process in ``CATAN_TEST_SERVICES`` (xdist
workers, Celery workers and benchmarks inherit it) and stops them when it exits.
PostgreSQL refuses to run as root: as root its server runs as the ``postgres`` user
(``nobody`` where that user is missing). A run killed before it could stop them leaves
its folder behind with its servers; the next start stops and removes those.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from arena_runner.sandbox.cgroups import pid_alive

ENV = "CATAN_TEST_SERVICES"
"""The environment variable describing the suite's running services (JSON)."""
PREFIX = "catan-test-services-"
"""Their folder's name starts with this and the pid of the process that owns them."""
MACHINE_PORTS = frozenset({5432, 6379})
"""The machine's own PostgreSQL and Redis ports: never the suite's."""
FAST = ("-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off")
"""Throwaway data: nothing is flushed to disk."""


def pg_bin() -> Path:
    """The newest PostgreSQL server binaries of this machine (Debian's layout)."""
    found = max(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0,
        default=None,
    )
    if found is None:
        raise RuntimeError(
            "no /usr/lib/postgresql/*/bin/initdb: install Debian's postgresql (make setup does)"
        )
    return found.parent


def free_port(address: str = "127.0.0.1") -> int:
    """A port nothing listens on now (not the machine's services' ports)."""
    while True:
        with socket.socket() as probe:
            probe.bind((address, 0))
            port: int = probe.getsockname()[1]
        if port not in MACHINE_PORTS:
            return port


def wait_port(address: str, port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection((address, port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return done


def server_user() -> str | None:
    """The user PostgreSQL runs as when we are root (None: as ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root, and neither a postgres nor a nobody user exists")


def _as_server_user(user: str | None, *command: str) -> tuple[str, ...]:
    return ("runuser", "-u", user, "--", *command) if user else command


class Postgres:
    """A throwaway PostgreSQL cluster in ``folder`` (a fresh temp folder by default),
    listening on ``address`` only; ``trust``: a subnet allowed in besides loopback."""

    def __init__(
        self,
        address: str = "127.0.0.1",
        *,
        folder: Path | None = None,
        trust: str | None = None,
        options: tuple[str, ...] = (),
    ) -> None:
        self.folder = folder or Path(tempfile.mkdtemp(prefix="catan-pg-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.address = address
        self.user = server_user()
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        if self.user:
            shutil.chown(self.folder, self.user, self.user)
        self.folder.chmod(0o755)
        _run(*self._as_owner(str(pg_bin() / "initdb"), "-D", str(self.data), "-A", "trust",
                             "-U", "postgres", "--no-sync", "-E", "UTF8"))  # fmt: skip
        if trust:
            with open(self.data / "pg_hba.conf", "a") as hba:
                hba.write(f"host all all {trust} trust\n")
        self.port = 0
        for attempt in range(3):  # a free port can be taken between the probe and the start
            self.port = free_port(address)
            settings = [f"-c listen_addresses={address}", f"-p {self.port}",
                        f"-c unix_socket_directories={self.folder}", *FAST, *options]  # fmt: skip
            try:
                _run(*self._as_owner(str(pg_bin() / "pg_ctl"), "-D", str(self.data), "-l",
                                     str(self.log), "-o", " ".join(settings), "-w", "-t", "60",
                                     "start"))  # fmt: skip
                break
            except RuntimeError:
                if attempt == 2:
                    self.close()
                    raise

    def _as_owner(self, *command: str) -> tuple[str, ...]:
        return _as_server_user(self.user, *command)

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@{self.address}:{self.port}/{name}"

    def close(self) -> None:
        stop_postgres(self.data, self.user)
        shutil.rmtree(self.folder, ignore_errors=True)


def stop_postgres(data: Path, user: str | None) -> None:
    if (data / "postmaster.pid").exists():
        subprocess.run(
            _as_server_user(user, str(pg_bin() / "pg_ctl"), "-D", str(data), "-m", "immediate",
                            "-w", "stop"),
            capture_output=True, timeout=60, check=False,
        )  # fmt: skip


class Redis:
    """A throwaway ``redis-server`` on ``address`` only, its files in ``folder`` (a fresh
    temp folder by default), nothing kept on disk unless ``options`` say so."""

    def __init__(
        self,
        address: str = "127.0.0.1",
        *,
        folder: Path | None = None,
        port: int | None = None,
        options: tuple[str, ...] = ("--save", "", "--appendonly", "no"),
    ) -> None:
        self.folder = folder or Path(tempfile.mkdtemp(prefix="catan-redis-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.address = address
        self.port = port or free_port(address)
        self.options = options
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        """Start the server (again, after :meth:`kill`: same port, same folder)."""
        self.process = subprocess.Popen(
            ["redis-server", "--bind", self.address, "--port", str(self.port),
             "--daemonize", "no", "--protected-mode", "no", "--dir", str(self.folder),
             *self.options],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        try:
            wait_port(self.address, self.port, 10)
        except BaseException:
            self.kill()
            raise

    def url(self, db: int = 0) -> str:
        return f"redis://{self.address}:{self.port}/{db}"

    def kill(self) -> None:
        """SIGKILL: no shutdown save."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass(frozen=True)
class Services:
    """The suite's running PostgreSQL and Redis, as every process of the run sees them."""

    folder: str
    host: str
    postgres_port: int
    postgres_user: str | None
    redis_port: int
    redis_pid: int
    owner: int
    """The pid of the process that started them (and stops them)."""

    @property
    def postgres_data(self) -> Path:
        return Path(self.folder) / "postgres" / "data"

    def postgres_url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@{self.host}:{self.postgres_port}/{name}"

    def redis_url(self, db: int = 0) -> str:
        return f"redis://{self.host}:{self.redis_port}/{db}"

    def restart_postgres(self) -> None:
        """``pg_ctl restart``: a fast shutdown, then a start with the same options (and
        the same log: without one the server would hold our output pipe open)."""
        log = self.postgres_data.parent / "server.log"
        _run(*_as_server_user(self.postgres_user, str(pg_bin() / "pg_ctl"), "-D",
                              str(self.postgres_data), "-l", str(log), "-m", "fast", "-w",
                              "-t", "60", "restart"))  # fmt: skip

    def stop(self) -> None:
        """Stop both servers and remove their folder."""
        stop_postgres(self.postgres_data, self.postgres_user)
        if _is_redis(self.redis_pid, self.redis_port):
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.redis_pid, signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Services:
        return cls(**json.loads(text))


def _is_redis(pid: int, port: int) -> bool:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return bool(argv) and b"redis-server" in argv[0] and str(port).encode() in b" ".join(argv)


def remove_stale() -> list[str]:
    """Stop and remove the services of earlier runs whose owner is gone (a killed run)."""
    removed = []
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        owner = folder.name.removeprefix(PREFIX).split("-")[0]
        description = folder / "services.json"
        if not owner.isdigit() or pid_alive(int(owner)):
            continue
        if description.exists():
            with contextlib.suppress(ValueError, TypeError, OSError):
                Services.from_json(description.read_text()).stop()
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(str(folder))
    return removed


def start() -> Services:
    """Start a PostgreSQL and a Redis of our own on loopback (stop them with
    :meth:`Services.stop`)."""
    remove_stale()
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    folder.chmod(0o755)
    postgres = Postgres(folder=folder / "postgres")
    try:
        redis = Redis(folder=folder / "redis")
    except BaseException:
        postgres.close()
        raise
    assert redis.process is not None
    services = Services(
        folder=str(folder),
        host="127.0.0.1",
        postgres_port=postgres.port,
        postgres_user=postgres.user,
        redis_port=redis.port,
        redis_pid=redis.process.pid,
        owner=os.getpid(),
    )
    (folder / "services.json").write_text(services.to_json())
    return services


def suite_services() -> Services:
    """The services of this run: described by ``CATAN_TEST_SERVICES`` when a parent
    process started them, else started now, described to our children through the
    environment and stopped when this process exits."""
    described = os.environ.get(ENV)
    if described:
        return Services.from_json(described)
    services = start()
    os.environ[ENV] = services.to_json()
    atexit.register(_stop_if_owner, services)
    return services


def _stop_if_owner(services: Services) -> None:
    if os.getpid() == services.owner:  # not in a forked child
        services.stop()
