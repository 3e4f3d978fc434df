"""Hostile-bot attacks run inside the sandbox; every one must be blocked."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena_runner.sandbox.cgroups import BotCgroup
from arena_runner.sandbox.launch import SANDBOX_UID, spawn_sandboxed, stage_bot
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import Tier, probe
from tests.support.sandbox import Listener, need_tier

ATTACK = Path(__file__).with_name("attack.py")
PROJECT_FILE = Path(__file__).resolve().parents[2] / "pyproject.toml"
ALWAYS_OK = {"ok_write_tmp", "ok_read_own_file", "ok_import_engine", "ok_kill_self"}


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """A work dir the sandbox uid can reach (pytest's own lives under a 0700 dir)."""
    path = Path(tempfile.mkdtemp(prefix="catan-sandbox-test-", dir="/tmp"))
    path.chmod(0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_attack(
    tmp_path: Path,
    tier: Tier,
    listener: Listener,
    *,
    jail_layers: tuple[str, ...] | None = None,
    cgroup: BotCgroup | None = None,
    uid: int = SANDBOX_UID,
) -> dict[str, Any]:
    work = tmp_path / "work"
    work.mkdir()
    other = tmp_path / "other_bot.py"
    other.write_text("SECRET = 'strategy'\n")
    other_dir, _ = stage_bot(other, work, uid)
    bot = tmp_path / "attack_bot"
    bot.mkdir()
    shutil.copy(ATTACK, bot / "__main__.py")
    params = {
        "port": listener.port,
        "worker": os.getpid(),
        "project_file": str(PROJECT_FILE),
        "other_bot": str(other_dir / other.name),
    }
    (bot / "params.json").write_text(json.dumps(params))
    proc = spawn_sandboxed(
        bot,
        tier=tier,
        limits=Limits(),
        workdir=work,
        module="bots.jail",
        cgroup=cgroup,
        uid=uid,
        jail_layers=jail_layers,
        require=None if jail_layers is None else (),
    )
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert out, f"no output (did exec succeed?): {err.decode()}"
    result: dict[str, Any] = json.loads(out.splitlines()[0])
    assert _nothing_left(str(work)), "a sandbox process outlived the bot"
    if cgroup is not None:
        # The sandbox's last process may still be exiting (a zombie counts) for a moment.
        deadline = time.monotonic() + 5.0
        while cgroup.pids() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert cgroup.pids() == []
    time.sleep(0.3)  # let the listener see any late connection
    result["accepted"] = listener.accepted
    return result


def _nothing_left(marker: str) -> bool:
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if marker.encode() in Path(entry.path, "cmdline").read_bytes():
                    return False
            except OSError:
                continue
    return True


def _allowed(results: dict[str, str]) -> set[str]:
    return {name for name, value in results.items() if value.startswith("ALLOWED")}


@pytest.mark.parametrize(
    "tier", [Tier.FULL, Tier.NO_NAMESPACES, Tier.NO_LANDLOCK], ids=lambda tier: tier.name
)
def test_every_attack_is_blocked(tmp_path: Path, listener: Listener, tier: Tier) -> None:
    need_tier(tier)
    cgroup = None
    if tier is Tier.FULL and probe().cgroups:
        cgroup = BotCgroup.create(f"test-{tmp_path.name}", Limits())
    try:
        result = run_attack(tmp_path, tier, listener, cgroup=cgroup)
    finally:
        if cgroup is not None:
            cgroup.remove()
    results = result["results"]
    expect_ok = set(ALWAYS_OK)
    if tier is Tier.NO_LANDLOCK:  # without Landlock, world-readable files stay readable
        expect_ok |= {"read_project_file", "read_other_bot"}
    assert _allowed(results) <= expect_ok, json.dumps(results, indent=1)
    assert _allowed(results) >= ALWAYS_OK, json.dumps(results, indent=1)
    assert "memory_bomb" in results and "exec" in results
    assert "MemoryError" in results["memory_bomb"]
    assert result["env"] == {}
    assert result["accepted"] == 0
    assert result["limits"]["RLIMIT_AS"] == [1 << 30, 1 << 30]
    assert all(result["report"]["applied"][name] for name in tier.jail_layers)


LAYER_CASES = {
    # each layer alone (the others off) still stops these attacks
    "bwrap": (
        Tier.FULL,
        (),
        {
            "tcp_connect",
            "read_shadow",
            "read_project_file",
            "read_other_bot",
            "list_root",
            "kill_worker",
            "write_usr",
            "write_bot_dir",
        },
    ),
    "landlock": (
        Tier.NO_NAMESPACES,
        ("no_new_privs", "landlock"),
        {
            "tcp_connect",
            "read_shadow",
            "read_project_file",
            "read_other_bot",
            "list_root",
            "read_parent_environ",
            "kill_worker",
            "write_usr",
            "write_bot_dir",
        },
    ),
    "seccomp": (
        Tier.NO_NAMESPACES,
        ("no_new_privs", "seccomp"),
        {
            "tcp_connect",
            "raw_socket_syscall",
            "unix_socket",
            "kill_parent",
            "kill_worker",
            "kill_process_group",
            "kill_everyone",
            "ptrace_parent",
            "unshare_userns",
            "thread",
            "subprocess",
            "fork",
            "exec",
        },
    ),
}


@pytest.mark.parametrize("layer", sorted(LAYER_CASES))
def test_each_layer_alone(tmp_path: Path, listener: Listener, layer: str) -> None:
    tier, layers, blocked = LAYER_CASES[layer]
    need_tier(tier)
    # no uid drop (uid 0 where the worker is root): the layer alone must do the blocking
    result = run_attack(tmp_path, tier, listener, jail_layers=layers, uid=os.geteuid())
    results = result["results"]
    leaked = {name for name in blocked if not results[name].startswith("blocked")}
    assert not leaked, json.dumps(results, indent=1)
    assert _allowed(results) >= ALWAYS_OK
    assert result["accepted"] == 0


def test_cpu_limit_kills_a_busy_bot(tmp_path: Path) -> None:
    need_tier(Tier.FULL)
    bot = tmp_path / "spin.py"
    bot.write_text("while True:\n    pass\n")
    work = tmp_path / "work"
    work.mkdir()
    started = time.monotonic()
    proc = spawn_sandboxed(
        bot, tier=Tier.FULL, limits=Limits(cpu_seconds=1), workdir=work, module="bots.jail"
    )
    proc.communicate(timeout=30)
    assert proc.returncode != 0
    assert time.monotonic() - started < 15


NOT_WITHOUT_SECCOMP = {"exec"}
"""Attempted only where seccomp is on (an allowed exec would replace the attack script)."""


@pytest.mark.skipif(os.geteuid() != 0, reason="the control runs the attacks as root, unconfined")
def test_positive_control_every_attack_succeeds_unconfined(
    tmp_path: Path, listener: Listener
) -> None:
    # No layer at all (tier NONE, as this worker's own root user): every attack that a
    # layer above is credited with blocking must succeed, or it proves nothing there.
    try:
        result = run_attack(tmp_path, Tier.NONE, listener, jail_layers=())
    finally:
        Path("/usr/evil").unlink(missing_ok=True)
    results = result["results"]
    credited = set().union(*(blocked for _, _, blocked in LAYER_CASES.values()))
    attempted = credited - NOT_WITHOUT_SECCOMP
    failed = {name: results[name] for name in attempted if not results[name].startswith("ALLOWED")}
    assert failed == {}, json.dumps(failed, indent=1)
    assert result["accepted"] >= 1  # the TCP connection really reached the listener
