"""The bot runtime virtualenv: Debian's python at a world-readable path.

The project interpreter may live where an unprivileged sandbox cannot exec it (pyenv under
/root), so bots run on ``/usr/bin/python3.11`` in a dedicated venv holding only what the
child needs. A ``.pth`` file adds the read-only source root ``/arena/src`` (the project's
``engine/`` and ``bots/``, bind-mounted by the launcher). ``python -m
arena_runner.sandbox.botenv [PATH]`` builds it (idempotent, version-stamped).

The bot runs with ``-B`` on a read-only view of the sources, so it never writes bytecode:
:func:`compile_sources` keeps the sources' ``__pycache__`` current for it (each start would
otherwise compile every stale module again, ~30 ms for the whole engine).
"""

from __future__ import annotations

import compileall
import fcntl
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from arena_runner.env import env_path

BOTENV_VERSION = 2
BASE_PYTHON = "/usr/bin/python3.11"
REQUIREMENTS = ("orjson==3.13.0", "networkx==3.6.1", "numpy==2.4.6")
"""What a bot may import besides the standard library and the SDK: numpy for trained
policies (weights shipped in the bot's package folder or zip), networkx for the board's
graph (:mod:`engine.board.topology` builds it when asked, never at start-up), orjson
(no bot process of ours imports it: the host's side of :mod:`bots.protocol` does)."""
SRC_MOUNT = "/arena/src"
REPO_ROOT = Path(__file__).resolve().parents[2]
STAMP_NAME = ".catan-botenv.json"
ENV_BOTENV = "CATAN_BOTENV"


class BotenvError(RuntimeError):
    """The bot runtime venv cannot be built or is not usable by the sandbox user."""


def default_path() -> Path:
    """``$CATAN_BOTENV``, else ``<repo>/.cache/botenv``."""
    return env_path(ENV_BOTENV, REPO_ROOT / ".cache" / "botenv").absolute()


def site_packages(env: Path) -> Path:
    """The venv's site-packages (the base python is 3.11)."""
    return env / "lib" / "python3.11" / "site-packages"


def _stamp() -> dict[str, object]:
    return {
        "version": BOTENV_VERSION,
        "base_python": BASE_PYTHON,
        "requirements": list(REQUIREMENTS),
        "src_mount": SRC_MOUNT,
    }


def _is_current(env: Path) -> bool:
    try:
        stamp = json.loads((env / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return False
    return stamp == _stamp() and (env / "bin" / "python").exists()


def check_world_readable(path: Path) -> None:
    """Raise unless every ancestor of ``path`` is searchable by other users."""
    for part in [path, *path.parents]:
        mode = part.stat().st_mode
        if not mode & stat.S_IXOTH:
            raise BotenvError(
                f"{part} is not searchable by other users (mode {oct(mode & 0o777)}): the "
                f"sandbox user cannot reach {path}"
            )


def _build(target: Path) -> None:
    if not os.access(BASE_PYTHON, os.X_OK):
        raise BotenvError(
            f"bots run on {BASE_PYTHON}, a world-readable interpreter the sandbox user can "
            "execute (a pyenv or venv python under /root is not): it is missing "
            "(apt-get install python3.11 python3.11-venv)"
        )
    subprocess.run([BASE_PYTHON, "-m", "venv", "--without-pip", str(target)], check=True)
    python = target / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install"]
    flags = ["--quiet", "--no-input", "--disable-pip-version-check", "--no-warn-script-location"]
    subprocess.run([*pip, *flags, *REQUIREMENTS], check=True)
    (site_packages(target) / "catan_arena_src.pth").write_text(SRC_MOUNT + "\n")
    for root, dirs, files in os.walk(target):
        for name in dirs + files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | 0o444 | (0o111 if name in dirs else 0))
    os.chmod(target, 0o755)
    (target / STAMP_NAME).write_text(json.dumps(_stamp(), indent=1) + "\n")


def ensure_botenv(path: Path | None = None) -> Path:
    """Build the bot runtime venv at ``path`` unless an up-to-date one is there."""
    env = (path or default_path()).absolute()
    if not _is_current(env):
        env.parent.mkdir(parents=True, exist_ok=True)
        with open(env.parent / f".{env.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not _is_current(env):
                staging = env.with_name(f".{env.name}.build-{os.getpid()}")
                shutil.rmtree(staging, ignore_errors=True)
                try:
                    _build(staging)
                    shutil.rmtree(env, ignore_errors=True)
                    staging.rename(env)
                finally:
                    shutil.rmtree(staging, ignore_errors=True)
    check_world_readable(env / "bin")
    compile_sources()
    return env


def compile_sources() -> bool:
    """Byte-compile the source packages the sandbox mounts (``engine/``, ``bots/``) for the
    bot interpreter, where stale or missing, and save the engine's generated code
    (:mod:`engine.codegen`) a bot process runs at start-up; readable by the sandbox user.
    Best effort: False if some file could not be compiled (that module is then compiled
    at import)."""
    from arena_runner.sandbox.launch import SOURCE_PACKAGES

    dirs = [str(REPO_ROOT / package) for package in SOURCE_PACKAGES]
    if sys.implementation.cache_tag == "cpython-311":  # the bytecode of BASE_PYTHON
        ok = all([compileall.compile_dir(d, quiet=2) for d in dirs])
        import bots.runtime  # noqa: F401  (a bot process's start: the engine's generated code)
        from engine.codegen import write_cache

        write_cache()
    else:
        run = subprocess.run([BASE_PYTHON, "-m", "compileall", "-q", *dirs], capture_output=True)
        ok = run.returncode == 0
    for d in dirs:
        for root, _, _ in os.walk(d):
            if os.path.basename(root) == "__pycache__":
                _make_readable(root)
    return ok


def _make_readable(cache_dir: str) -> None:
    try:
        os.chmod(cache_dir, os.stat(cache_dir).st_mode | 0o555)
        for name in os.listdir(cache_dir):
            path = os.path.join(cache_dir, name)
            os.chmod(path, os.stat(path).st_mode | 0o444)
    except OSError:
        pass


def main(argv: list[str]) -> int:
    """Entry point for the Makefile: build (or confirm) the bot runtime venv."""
    env = ensure_botenv(Path(argv[0]) if argv else None)
    print(f"bot runtime venv ready: {env}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
