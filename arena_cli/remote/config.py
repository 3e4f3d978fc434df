"""Where the client finds its server and token: flags, then the environment
(``CATAN_ARENA_SERVER``, ``CATAN_ARENA_TOKEN``), then the config file in the user's
config folder (``config.json``, readable by its owner only). The token is never printed."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from arena_runner.env import env_path, raw

ENV_SERVER = "CATAN_ARENA_SERVER"
ENV_TOKEN = "CATAN_ARENA_TOKEN"
ENV_CONFIG_DIR = "CATAN_ARENA_CONFIG_DIR"
DEFAULT_SERVER = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class Settings:
    server: str
    token: str | None


def config_path() -> Path:
    return env_path(ENV_CONFIG_DIR, platformdirs.user_config_dir("catan-arena")) / "config.json"


def load_file() -> dict[str, str]:
    path = config_path()
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise SystemExit(f"cannot read {path}: {exc}") from None
    return (
        {k: str(v) for k, v in data.items() if k in ("server", "token")}
        if isinstance(data, dict)
        else {}
    )


def resolve(server: str | None, token: str | None) -> Settings:
    """The server and token to use (flags win, then the environment, then the file)."""
    stored = load_file()
    chosen_server = server or raw(ENV_SERVER) or stored.get("server") or DEFAULT_SERVER
    chosen_token = token or raw(ENV_TOKEN) or stored.get("token")
    return Settings(chosen_server.rstrip("/"), chosen_token)


def save(server: str, token: str) -> Path:
    """Store the server and token for the next commands (mode 0600)."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump({"server": server, "token": token}, out)
    os.chmod(path, 0o600)
    return path
