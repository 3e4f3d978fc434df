"""Off turn, a bot asleep reading its input pipe is left asleep; every other bot is
frozen (:meth:`arena_runner.subprocess_driver.SubprocessDriver.pause`).

What the runner reads (``/proc/PID/wchan``) tells a read on a pipe from every other way
of waiting, the ones a timer or a clock ends included: a sleep, a poll with a timeout,
a read on a timer's file. Where the sleep does not hold (no seccomp, which denies the
timers that could end it, or no bwrap namespaces, which keep other bots from its pipes)
or ``leave_asleep`` is off, the bot is frozen all the same.
Whether a bot left asleep then stays quiet is shown by ``test_offturn.py``."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena_runner import BotRunner, SandboxPolicy, SubprocessDriver, Tier
from arena_runner.policy import resolve_policy
from arena_runner.process import BotProcess
from bots.registry import resolve_bot
from engine import Clock, Game, RulesConfig
from tests.support.hostile import TEST_UID
from tests.support.sandbox import need_cgroups, need_tier

TIMERFD_READ = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.timerfd_create(1, 0)  # CLOCK_MONOTONIC
spec = (ctypes.c_long * 4)(0, 0, 60, 0)  # no interval; first expiry in 60 s
assert fd >= 0 and libc.timerfd_settime(fd, 0, spec, None) == 0
print("up", flush=True)
os.read(fd, 8)
"""
WAITS = {
    "reading its input pipe": "import sys\nprint('up', flush=True)\nsys.stdin.buffer.read(1)",
    "sleeping": "import time\nprint('up', flush=True)\ntime.sleep(60)",
    "polling its input with a timeout": (
        "import select, sys\nprint('up', flush=True)\nselect.select([sys.stdin], [], [], 60)"
    ),
    "reading a timer's file": TIMERFD_READ,
    "running": "print('up', flush=True)\nwhile True: pass",
}


@pytest.fixture(params=list(WAITS))
def waiting(request: pytest.FixtureRequest) -> Iterator[tuple[str, BotProcess]]:
    popen = subprocess.Popen(
        [sys.executable, "-c", WAITS[request.param]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert popen.stdout is not None and popen.stdout.readline() == b"up\n"
        proc = BotProcess(popen)
        proc.find_bot()
        yield request.param, proc
    finally:
        popen.kill()
        popen.wait()


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_only_a_read_on_a_pipe_counts_as_asleep_on_input(waiting: tuple[str, BotProcess]) -> None:
    how, proc = waiting
    settled = time.monotonic() + 5.0
    expected_state = "R" if how == "running" else "S"
    while _state(proc.bot_pid) != expected_state and time.monotonic() < settled:
        time.sleep(0.01)
    time.sleep(0.05)  # past the last steps into its wait
    assert proc.asleep_on_input() is (how == "reading its input pipe"), how


def test_an_unknown_interpreter_is_never_asleep_on_input() -> None:
    popen = subprocess.Popen([sys.executable, "-c", "input()"], stdin=subprocess.PIPE)
    try:
        assert not BotProcess(popen).asleep_on_input()  # find_bot not called yet
    finally:
        popen.kill()
        popen.wait()


def test_the_sleep_holds_only_under_seccomp_in_bwrap_s_namespaces() -> None:
    assert SandboxPolicy(Tier.FULL).sleep_holds
    assert SandboxPolicy(Tier.BWRAP_NO_LANDLOCK).sleep_holds
    # without namespaces, a bot of the same uid could open another's pipe through /proc
    assert not SandboxPolicy(Tier.NO_NAMESPACES).sleep_holds
    assert not SandboxPolicy(Tier.NO_LANDLOCK).sleep_holds
    assert not SandboxPolicy(Tier.NONE).sleep_holds
    assert not SandboxPolicy(Tier.FULL, jail_layers=("rlimits", "landlock")).sleep_holds


CONFIG = RulesConfig()


def _paused_after_a_decision(policy: SandboxPolicy) -> tuple[bool, bool]:
    """(frozen, asleep on input) of a random bot paused after its first decision."""
    game = Game.new(CONFIG, 1)
    with BotRunner(policy) as runner:
        driver = runner.driver(resolve_bot("random"))
        assert isinstance(driver, SubprocessDriver)
        assert driver.start(0, CONFIG, game.layout, 1, game.observe(0, with_legal=False)) is None
        reply = driver.act(game.observe(0), Clock(5.0, 0.0))
        assert reply in game.legal_actions()
        proc = driver.process
        assert proc is not None
        settled = time.monotonic() + 5.0  # its runtime back in its read
        while not proc.asleep_on_input() and time.monotonic() < settled:
            time.sleep(0.01)
        driver.pause()
        return proc.frozen, proc.asleep_on_input()


def _full() -> SandboxPolicy:
    need_tier(Tier.FULL)
    need_cgroups()
    return dataclasses.replace(resolve_policy(Tier.FULL), uid=TEST_UID)


def test_a_bot_asleep_on_its_input_is_left_asleep() -> None:
    assert _paused_after_a_decision(_full()) == (False, True)


def test_control_with_leave_asleep_off_it_is_frozen() -> None:
    frozen, _ = _paused_after_a_decision(dataclasses.replace(_full(), leave_asleep=False))
    assert frozen


def test_control_without_seccomp_it_is_frozen() -> None:
    policy = dataclasses.replace(_full(), jail_layers=("rlimits", "no_new_privs", "landlock"))
    frozen, _ = _paused_after_a_decision(policy)
    assert frozen
