"""The tier probe, the fail-closed ``require``, and the bot runtime venv."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from arena_runner.sandbox import tiers
from arena_runner.sandbox.botenv import (
    REQUIREMENTS,
    SRC_MOUNT,
    STAMP_NAME,
    _is_current,
    ensure_botenv,
    site_packages,
)
from arena_runner.sandbox.tiers import ProbeResult, SandboxUnavailable, Tier, probe, require
from tests.support.sandbox import need_tier


def test_probe_is_cached_and_consistent() -> None:
    result = probe()
    assert probe() is result
    if result.tier >= Tier.NO_LANDLOCK:
        assert all(result.jail[name] for name in result.tier.jail_layers)
    if result.tier is Tier.FULL:
        assert result.bwrap and result.landlock_abi >= 1


def test_full_tier_where_bubblewrap_is_installed() -> None:
    if os.environ.get("CI") and os.path.exists("/usr/bin/bwrap"):
        assert probe().tier is Tier.FULL, probe().summary()
    need_tier(Tier.FULL)
    assert require(Tier.FULL).tier is Tier.FULL


def test_require_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    weak = ProbeResult(Tier.NO_LANDLOCK, False, reasons=("landlock failed: ENOSYS",))
    monkeypatch.setattr(tiers, "probe", lambda: weak)
    with pytest.raises(SandboxUnavailable, match=r"NO_LANDLOCK.*below the required FULL"):
        require(Tier.FULL)
    monkeypatch.setenv(tiers.ENV_MIN_TIER, "no_namespaces")
    with pytest.raises(SandboxUnavailable):
        require()
    monkeypatch.setenv(tiers.ENV_MIN_TIER, "NO_LANDLOCK")
    assert require() is weak
    with pytest.raises(SandboxUnavailable, match="cgroups are required"):
        require(cgroups=True)
    monkeypatch.setenv(tiers.ENV_MIN_TIER, "bogus")
    with pytest.raises(SandboxUnavailable, match="is not one of: NONE, NO_LANDLOCK"):
        require()


def test_botenv_is_built_once_and_usable_by_anyone() -> None:
    env = ensure_botenv()
    assert ensure_botenv() == env
    stamp = json.loads((env / STAMP_NAME).read_text())
    assert stamp["requirements"] == list(REQUIREMENTS)
    assert (site_packages(env) / "catan_arena_src.pth").read_text().strip() == SRC_MOUNT
    for path in (env, env / "bin", site_packages(env) / "orjson"):
        assert path.stat().st_mode & stat.S_IXOTH
    code = "import sys, orjson, networkx; print(sys.version_info[:2], sys.prefix)"
    out = subprocess.run(
        [str(env / "bin" / "python"), "-I", "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("(3, 11)")


def test_stale_stamp_is_detected(tmp_path: Path) -> None:
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "python").touch()
    assert not _is_current(env)
    stamp = json.loads((ensure_botenv() / STAMP_NAME).read_text())
    (env / STAMP_NAME).write_text(json.dumps(stamp))
    assert _is_current(env)
    (env / STAMP_NAME).write_text(json.dumps({**stamp, "version": -1}))
    assert not _is_current(env)


def test_without_landlock_the_probe_keeps_bwrap(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena_runner.sandbox import botenv, cgroups

    applied = {"rlimits": True, "no_new_privs": True, "landlock": False, "seccomp": True}
    report = {"applied": applied, "errors": {"landlock": "ENOSYS"}, "landlock_abi": 0}
    monkeypatch.setattr(botenv, "ensure_botenv", lambda: None)
    monkeypatch.setattr(cgroups, "usable_version", lambda: "v1")
    monkeypatch.setattr(tiers.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(tiers, "_try_jail", lambda tier, workdir: (report, ""))
    found = tiers.probe.__wrapped__()
    assert found.tier is Tier.BWRAP_NO_LANDLOCK and found.tier.uses_bwrap, found.summary()
    # control: with Landlock too, the same probe says FULL
    monkeypatch.setattr(
        tiers,
        "_try_jail",
        lambda tier, workdir: ({**report, "applied": {**applied, "landlock": True}}, ""),
    )
    assert tiers.probe.__wrapped__().tier is Tier.FULL
