"""Fail closed, both sides: a required hardening layer that fails in the child stops it
(exit 70) before the bot is imported; the parent refuses a child whose hello lacks a
layer its tier requires (a platform fault, the match voided). Each with its control."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from arena_runner.policy import SandboxPolicy
from arena_runner.result import FaultKind
from arena_runner.sandbox.tiers import JAIL_LAYERS, Tier
from arena_runner.subprocess_driver import SubprocessDriver
from bots.jail import ENV_VAR, JailLimits, encode_config
from engine import Game, RulesConfig
from tests.support.drivers import READY, fake_child

ROOT = Path(__file__).resolve().parents[2]
BOT = (
    "open(__file__ + '.imported', 'w').close()\nfrom bots import Player\n\n\n"
    "class B(Player):\n    def act(self, o):\n        return o.legal_actions[0]\n"
)


def _run_runtime(tmp_path: Path, require: list[str]) -> tuple[int, str, bool]:
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    limits = vars(JailLimits()) | {"address_space": "lots"}  # the rlimits layer fails
    config = {"apply": ["rlimits"], "require": require, "limits": limits,
              "readable_paths": [], "writable_tmp": None}  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-I", "-m", "bots.runtime", str(bot)],
        env={ENV_VAR: encode_config(config)},
        input=b"",
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    imported = (tmp_path / "bot.py.imported").exists()
    return proc.returncode, proc.stdout.decode(), imported


def test_a_required_layer_that_fails_stops_the_child_before_the_bot(tmp_path: Path) -> None:
    code, out, imported = _run_runtime(tmp_path, ["rlimits"])
    assert code == 70 and out == "" and not imported


def test_control_the_same_failure_not_required_is_reported_and_goes_on(tmp_path: Path) -> None:
    code, out, imported = _run_runtime(tmp_path, [])
    hello = json.loads(out.splitlines()[0])
    assert code == 0 and imported
    assert hello["type"] == "sandbox" and hello["jail"]["applied"]["rlimits"] is False


def _fake(directory: Path, applied: dict[str, bool]) -> SubprocessDriver:
    spawn = fake_child(directory, READY, jail={"applied": applied})
    return SubprocessDriver("fake.py", policy=SandboxPolicy(Tier.FULL), spawn=spawn)


def _start(driver: SubprocessDriver) -> object:
    game = Game.new(RulesConfig(), 1)
    return driver.start(0, game.config, game.layout, 1, game.observe(0, with_legal=False))


def test_the_parent_refuses_a_hello_lacking_a_required_layer(tmp_path: Path) -> None:
    driver = _fake(tmp_path, dict.fromkeys(JAIL_LAYERS, True) | {"seccomp": False})
    try:
        fault = _start(driver)
        assert fault is not None and fault.kind is FaultKind.PLATFORM  # type: ignore[attr-defined]
        assert "needs ['seccomp']" in fault.message  # type: ignore[attr-defined]
    finally:
        driver.close()


def test_control_a_hello_with_every_layer_starts(tmp_path: Path) -> None:
    driver = _fake(tmp_path, dict.fromkeys(JAIL_LAYERS, True))
    try:
        assert _start(driver) is None
    finally:
        driver.close()
