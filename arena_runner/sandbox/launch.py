"""Start one bot process inside the sandbox of a given tier.

Outside in: [cgroup join (sh, as root)] -> setpriv (drop to the sandbox uid, parent-death
SIGKILL) -> bwrap (namespaces, read-only binds, tmpfs /tmp; FULL tier only) -> the bot
runtime venv's python, whose runtime calls ``bots.jail.harden_from_env()`` before
importing the bot.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena_runner.sandbox.botenv import REPO_ROOT, SRC_MOUNT, check_world_readable, default_path
from arena_runner.sandbox.cgroups import BotCgroup
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import JAIL_LAYERS, Tier
from bots.jail import ENV_VAR as JAIL_ENV
from bots.jail import encode_config
from bots.package import ENTRY, BotPackageError, unpack_zip

SANDBOX_UID = 65534  # nobody; pass a distinct uid per concurrent seat for more isolation
BOT_MOUNT = "/bot"
ENV_MOUNT = "/arena/env"
SOURCE_PACKAGES = ("engine", "bots")
ROOT_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_JOIN_CGROUP = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'
DEFERRED = "--deferred"  # = bots.runtime.DEFERRED (not imported: bots.runtime is child-side)
"""The runtime's argument for a blank sandbox: the bot is named by the ``start`` message."""
_BOOT = (
    "import sys,runpy;sys.path.insert(0,sys.argv.pop(1));m=sys.argv.pop(1);"
    "runpy.run_module(m,run_name='__main__',alter_sys=True)"
)


def stage_bot(bot_file: Path | None, workdir: Path, uid: int) -> tuple[Path, Path]:
    """Copy the bot into a fresh read-only seat dir (an empty one for ``None``, filled
    later by :func:`fill_seat`); return (bot dir, private tmp dir)."""
    os.chmod(workdir, os.stat(workdir).st_mode | 0o111)  # the sandbox uid must reach its seat
    check_world_readable(workdir)
    seat = Path(tempfile.mkdtemp(prefix="seat-", dir=workdir))
    bot_dir, tmp_dir = seat / "bot", seat / "tmp"
    bot_dir.mkdir()
    if bot_file is not None:
        fill_seat(bot_dir, bot_file)
    os.chmod(seat, 0o755)
    os.chmod(bot_dir, 0o755)
    tmp_dir.mkdir(mode=0o700)
    if os.geteuid() == 0:
        os.chown(tmp_dir, uid, uid)
    return bot_dir, tmp_dir


def fill_seat(bot_dir: Path, bot_file: Path) -> str:
    """Copy the bot — a file, a package folder or a package zip (:mod:`bots.package`:
    unpacked safely first) — into ``bot_dir``, readable by the sandbox uid; return the
    entry to import, relative to ``bot_dir``. ``BotPackageError`` if refused."""
    if bot_file.suffix == ".zip":
        scratch = Path(tempfile.mkdtemp(prefix="unpack-", dir=bot_dir.parent))
        try:
            folder = unpack_zip(bot_file, scratch / "pkg")
            shutil.copytree(folder, bot_dir, symlinks=True, dirs_exist_ok=True)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    elif bot_file.is_dir():
        links = [p for p in bot_file.rglob("*") if p.is_symlink()]
        if links:
            raise BotPackageError(f"{links[0]}: links are not allowed in a bot folder")
        shutil.copytree(bot_file, bot_dir, symlinks=True, dirs_exist_ok=True)
    else:
        shutil.copyfile(bot_file, bot_dir / bot_file.name)
    for root, dirs, files in os.walk(bot_dir):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o644)
    return entry_name(bot_file)


def entry_name(bot_file: Path) -> str:
    """The module the runtime imports for ``bot_file`` (relative to its seat's bot dir)."""
    if bot_file.suffix == ".zip" or (bot_file / ENTRY).is_file():
        return ENTRY
    return "" if bot_file.is_dir() else bot_file.name  # "": a folder run as a script


def child_bot_path(tier: Tier, bot_dir: Path, entry: str) -> str:
    """Where the bot process sees ``bot_dir/entry`` (its mount inside bwrap)."""
    return f"{BOT_MOUNT}/{entry}" if tier.uses_bwrap else str(bot_dir / entry)


def _jail_config(
    tier: Tier,
    limits: Limits,
    readable: list[str],
    tmp: str,
    require: Sequence[str] | None,
    apply: Sequence[str] | None,
) -> str:
    """The jail's configuration, as ``$CATAN_JAIL`` carries it."""
    everything = () if tier is Tier.NONE else JAIL_LAYERS
    config = {
        "apply": list(everything if apply is None else apply),
        "limits": limits.jail_limits(),
        "readable_paths": readable,
        "writable_tmp": tmp,
        "require": list(tier.jail_layers if require is None else require),
    }
    return encode_config(config)


def bwrap_args(botenv: Path, bot_dir: Path, limits: Limits) -> list[str]:
    """The bwrap prefix: fresh namespaces, read-only system + runtime + source + bot."""
    args = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent"]
    args += ["--new-session", "--cap-drop", "ALL", "--clearenv", "--ro-bind", "/usr", "/usr"]
    for name in ROOT_LINKS:
        if os.path.islink(name):
            args += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            args += ["--ro-bind", name, name]
    args += ["--ro-bind", str(botenv), ENV_MOUNT]
    for package in SOURCE_PACKAGES:
        args += ["--ro-bind", str(REPO_ROOT / package), f"{SRC_MOUNT}/{package}"]
    args += ["--ro-bind", str(bot_dir), BOT_MOUNT, "--proc", "/proc", "--dev", "/dev"]
    args += ["--size", str(limits.tmp_bytes), "--perms", "0700", "--tmpfs", "/tmp"]
    return [*args, "--chdir", "/tmp", "--hostname", "arena"]


def drop_privileges(uid: int) -> list[str]:
    if os.geteuid() != 0:
        return []
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--pdeathsig=KILL"]


def start_sandbox(
    bot_file: Path | None,
    *,
    tier: Tier,
    limits: Limits,
    workdir: Path,
    module: str = "bots.runtime",
    cgroup: BotCgroup | None = None,
    uid: int = SANDBOX_UID,
    botenv: Path | None = None,
    require: Sequence[str] | None = None,
    jail_layers: Sequence[str] | None = None,
) -> tuple[subprocess.Popen[bytes], Path]:
    """Run ``python -I -m MODULE <bot>`` for a per-seat copy of ``bot_file`` at ``tier``;
    return the process and its seat's (host-side) bot dir.

    ``workdir`` (owned and removed by the caller) receives the seat dir. ``require``
    overrides the in-child layers that must apply (the probe passes ``()``);
    ``jail_layers`` restricts the layers attempted (tests of single layers only).

    ``bot_file=None`` starts a *blank* sandbox: hardened, with an empty seat dir, waiting
    for the ``start`` message to name the bot once it was copied into the bot dir
    (:func:`fill_seat`, :func:`child_bot_path`).
    """
    workdir = Path(workdir).absolute()
    botenv = (botenv or default_path()).absolute()
    bot_file = None if bot_file is None else Path(bot_file).absolute()
    bot_dir, tmp_dir = stage_bot(bot_file, workdir, uid)
    entry = None if bot_file is None else entry_name(bot_file)
    target = DEFERRED if entry is None else child_bot_path(tier, bot_dir, entry)
    cwd = str(tmp_dir)
    if tier is Tier.NONE:
        config = _jail_config(tier, limits, [], cwd, require, jail_layers)
        cmd = [sys.executable, "-I", "-m", module, target]
        env = {JAIL_ENV: config}
    elif tier.uses_bwrap:
        readable = ["/usr", ENV_MOUNT, SRC_MOUNT, BOT_MOUNT]
        config = _jail_config(tier, limits, readable, "/tmp", require, jail_layers)
        python = [f"{ENV_MOUNT}/bin/python", "-I", "-B", "-m", module, target]
        cmd = [*drop_privileges(uid), *bwrap_args(botenv, bot_dir, limits)]
        cmd += ["--setenv", JAIL_ENV, config, "--", *python]
        env = {}
    else:
        readable = ["/usr", *(p for p in ROOT_LINKS if os.path.isdir(p) and not os.path.islink(p))]
        readable += [str(botenv), *(str(REPO_ROOT / p) for p in SOURCE_PACKAGES), str(bot_dir)]
        config = _jail_config(tier, limits, readable, cwd, require, jail_layers)
        python = [str(botenv / "bin" / "python"), "-I", "-B", "-c", _BOOT, str(REPO_ROOT)]
        cmd = [*drop_privileges(uid), *python, module, target]
        env = {JAIL_ENV: config}
    if cgroup is not None:
        cmd = ["/bin/sh", "-c", _JOIN_CGROUP, "sh", *map(str, cgroup.procs_files), "--", *cmd]
    return open_bot_pipes(cmd, cwd=cwd, env=env), bot_dir


def open_bot_pipes(cmd: list[str], *, cwd: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """Start a bot's process as the runner talks to it: binary unbuffered stdio pipes,
    a session of its own, no inherited descriptors."""
    return subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
        close_fds=True,
        start_new_session=True,
        cwd=cwd,
        env=env,
    )


def spawn_sandboxed(bot_file: Path, **options: Any) -> subprocess.Popen[bytes]:
    """Run the bot runtime for a per-seat copy of ``bot_file`` (see :func:`start_sandbox`)."""
    return start_sandbox(bot_file, **options)[0]
