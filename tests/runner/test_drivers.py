"""Seat drivers one message at a time: replies the host cannot read, start failures,
process reuse and clean-up, safe defaults."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import ClassVar

import pytest

from arena_runner import (
    Fault,
    FaultKind,
    InProcessDriver,
    SandboxPolicy,
    SubprocessDriver,
    Tier,
    play_match,
    safe_default,
)
from bots.player import Player
from bots.protocol import PROTOCOL_VERSION
from bots.registry import resolve_bot
from engine import Action, Clock, Game, Observation, RulesConfig
from engine.actions import CANCEL, DISCARDS, END_TURN, REJECT, ROLL
from tests.support.drivers import CONFIG, READY, fake_child, start
from tests.support.runner import pid_gone, policy_with


@pytest.mark.parametrize(
    ("reply", "needle"),
    [
        (b"hello\n", "not valid JSON"),
        (b"[1, 2]\n", "must be a JSON object, not an array"),
        (b'{"type": "shout"}\n', "unknown bot message type 'shout'"),
        (READY.replace(b"%d" % PROTOCOL_VERSION, b"true"), "'protocol_version' is a boolean"),
        (READY.replace(b"%d" % PROTOCOL_VERSION, b"1"), "protocol version 1"),
        (b'{"type": "bye", "seq": SEQ}\n', "expected a 'ready' reply, got 'bye'"),
        (b'{"type": "bye", "seq": 7}\n', "a reply to another prompt"),
        (b"x" * (1 << 20) + b"\n", "longer than"),
    ],
)
def test_unreadable_replies_are_garbage_and_kill_the_process(
    tmp_path: Path, reply: bytes, needle: str
) -> None:
    driver = SubprocessDriver("fake.py", spawn=fake_child(tmp_path, reply))
    pid = driver.pid
    fault = start(driver)
    assert fault is not None and fault.kind is FaultKind.GARBAGE
    assert needle in fault.message
    assert not driver.alive
    driver.close()
    assert pid is not None and pid_gone(pid)


def test_an_unreadable_action_is_garbage(tmp_path: Path) -> None:
    action = b'{"type": "action", "action": {"type": "fly"}, "seq": SEQ}\n'
    driver = SubprocessDriver("fake.py", spawn=fake_child(tmp_path, READY, action))
    try:
        assert start(driver) is None
        game = Game.new(CONFIG, 1)
        reply = driver.act(game.observe(0), Clock(5.0, 0.0))
        assert isinstance(reply, Fault) and reply.kind is FaultKind.GARBAGE
        assert "unreadable action" in reply.message
    finally:
        driver.close()


def test_import_errors_and_slow_starts(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("import nosuchmodule_xyz\n")
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import time\nfrom bots import Player\n\n\nclass Slow(Player):\n"
        "    def on_game_start(self, seat, observation):\n        time.sleep(60)\n\n"
        "    def act(self, observation):\n        return observation.legal_actions[0]\n"
    )
    slow_driver = SubprocessDriver(slow, policy=policy_with(import_seconds=3.0))
    drivers = [SubprocessDriver(broken), slow_driver]
    try:
        fault = start(drivers[0])
        assert fault is not None and fault.kind is FaultKind.ERROR
        assert "No module named 'nosuchmodule_xyz'" in fault.message
        assert "nosuchmodule_xyz" in fault.detail and not drivers[0].alive
        began = time.monotonic()
        fault = start(drivers[1])
        assert fault is not None and fault.kind is FaultKind.TIMEOUT
        assert time.monotonic() - began < 10 and not drivers[1].alive
    finally:
        for driver in drivers:
            driver.close()


def test_one_process_plays_game_after_game_and_is_restarted_after_a_crash() -> None:
    drivers = [SubprocessDriver(resolve_bot("random")) for _ in range(3)]
    config = RulesConfig(players=3)
    try:
        first_pid = drivers[0].pid
        for seed in (1, 2):
            result = play_match(config, seed, drivers)
            assert result.all_faults == [] and drivers[0].pid == first_pid
        drivers[0].close()
        assert first_pid is not None and pid_gone(first_pid)
        result = play_match(config, 3, drivers)
        assert result.all_faults == [] and drivers[0].pid != first_pid
    finally:
        for driver in drivers:
            driver.close()


def test_killing_a_bot_kills_what_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    bot = tmp_path / "spawner.py"
    bot.write_text(
        "import subprocess, time\nfrom bots import Player\n\n\nclass Spawner(Player):\n"
        "    def act(self, observation):\n"
        "        child = subprocess.Popen(['sleep', '60'])\n"
        f"        open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "        time.sleep(60)\n"
    )
    # tier NONE (no seccomp), so that it can fork at all
    driver = SubprocessDriver(bot, policy=SandboxPolicy(Tier.NONE))
    try:
        assert start(driver) is None
        reply = driver.act(Game.new(CONFIG, 1).observe(0), Clock(0.3, 0.0))
        assert isinstance(reply, Fault) and reply.kind is FaultKind.TIMEOUT
    finally:
        driver.close()
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while not pid_gone(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)  # the grandchild is reaped by init, not by us
    assert pid_gone(grandchild)


class ClockWatcher(Player):
    clocks: ClassVar[list[Clock | None]] = []

    def act(self, observation: Observation) -> Action:
        ClockWatcher.clocks.append(observation.clock)
        return self.rng.choice(observation.legal_actions)


def test_in_process_bots_see_the_clock() -> None:
    ClockWatcher.clocks = []
    drivers = [InProcessDriver(ClockWatcher) for _ in range(3)]
    play_match(RulesConfig(players=3), 4, drivers, decision_timeout=1.5, time_bank=7.0)
    assert ClockWatcher.clocks and all(c is not None for c in ClockWatcher.clocks)
    assert ClockWatcher.clocks[0] == Clock(1.5, 7.0, game=120 * 1.5 + 7.0)


def test_safe_default_prefers_doing_nothing() -> None:
    rng = random.Random(0)
    assert safe_default([ROLL, END_TURN], rng) is END_TURN
    assert safe_default([ROLL], rng) is ROLL
    assert safe_default([REJECT, CANCEL], rng) is REJECT
    assert safe_default([CANCEL], rng) is CANCEL
    picks = [safe_default(DISCARDS, random.Random(5)) for _ in range(3)]
    assert picks[0] in DISCARDS and len(set(picks)) == 1
