"""A bot cannot run off turn. A bot that could run is frozen: not even a POSIX timer
that sends it SIGCONT wakes it (the trick that woke a SIGSTOPped bot: 1 s of CPU per
second "frozen"), nor CPU it burns right after its reply. Two layers stop the timers,
each shown alone: the cgroup v2 freezer (a frozen task ignores SIGCONT) and seccomp (no
POSIX or interval timers). A bot asleep reading its input pipe is left asleep, not frozen
(:attr:`arena_runner.policy.SandboxPolicy.sleep_holds`): seccomp's denial of the interval
timer is what keeps it asleep (removing ``setitimer`` from the deny list makes
``test_the_full_sandbox_gives_no_cpu_off_turn`` fail). Positive controls: the timer code
keeps a SIGSTOPped plain process running, and the burner runs off turn unfrozen. CPU a
bot uses off turn anyway is charged to its time bank."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arena_runner.drivers import InProcessDriver
from arena_runner.seats import OFFTURN_ALLOWANCE, Seat
from bots.builtin.random_bot import RandomPlayer
from engine import Clock
from tests.support.hostile import HOSTILE, SLOW_VICTIM, Played, play_hostile
from tests.support.sandbox import need_cgroups

pytestmark = pytest.mark.serial  # CPU measurements: alone, not beside other matches

WITHOUT_SECCOMP = ("rlimits", "no_new_privs", "landlock")
BANK = 5.0


def _play(name: str = "sigcont_timer", **policy_changes: Any) -> tuple[Played, float, float]:
    played = play_hostile(
        name,
        decision=0.5,
        bank=BANK,
        victim_source=SLOW_VICTIM,
        policy_changes=policy_changes,
    )
    stats = played.result.stats[0]
    others = sum(s.total for s in played.result.stats[1:])
    assert others > 0.1, others
    return played, stats.offturn_cpu, others


def _quiet(offturn: float, others: float) -> bool:
    """Frozen: only the moments between a reply and its freeze (~0.01-0.04 s a game).
    The unprotected control runs for seconds when alone, ~0.5 s on a loaded machine."""
    return offturn < min(0.15, 0.05 * others + 0.02)


def test_the_full_sandbox_gives_no_cpu_off_turn() -> None:
    need_cgroups()
    played, offturn, others = _play()
    assert "timer_create denied" in played.log and "setitimer denied" in played.log
    assert _quiet(offturn, others), (offturn, others)


def test_cpu_burned_after_each_reply_is_frozen() -> None:
    played, offturn, others = _play("offturn_burner")
    assert "hooked the runtime's loop" in played.log
    assert played.result.forfeited == set()
    assert _quiet(offturn, others), (offturn, others)


def test_control_unfrozen_the_burner_runs_off_turn() -> None:
    played, offturn, others = _play("offturn_burner", freeze=False)
    assert "hooked the runtime's loop" in played.log
    assert not _quiet(offturn, others), (offturn, others)


def test_the_cgroup_freezer_alone_holds_against_the_sigcont_timer() -> None:
    need_cgroups()
    played, offturn, others = _play(jail_layers=WITHOUT_SECCOMP)
    assert "timer_create armed" in played.log  # the timer runs: only the freezer holds
    assert _quiet(offturn, others), (offturn, others)


def test_seccomp_alone_denies_the_timer_under_sigstop() -> None:
    played, offturn, others = _play(cgroups=False)
    assert "timer_create denied" in played.log and "setitimer denied" in played.log
    assert _quiet(offturn, others), (offturn, others)


CONTROL = """
import signal, sys
sys.path.insert(0, sys.argv[1])
from sigcont_timer import arm_sigcont_timer, burn
signal.signal(signal.SIGCONT, burn)
print(arm_sigcont_timer(), flush=True)
sys.stdin.readline()
"""


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_positive_control_the_trick_runs_a_sigstopped_process() -> None:
    # The hostile bot's own timer code, outside any sandbox, stopped with SIGSTOP.
    proc = subprocess.Popen(
        [sys.executable, "-c", CONTROL, str(HOSTILE)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "timer_create armed"
        os.kill(proc.pid, signal.SIGSTOP)
        before = _cpu(proc.pid)
        time.sleep(0.5)
        assert _cpu(proc.pid) - before > 0.2  # "stopped", yet it ran most of the time
    finally:
        proc.kill()
        proc.wait()


def test_off_turn_cpu_is_charged_to_the_bank() -> None:
    seat = Seat(0, InProcessDriver(RandomPlayer), bank=1.0)
    clock = Clock(0.5, 1.0)
    assert seat.charge(clock, 0.1, offturn=0.6)
    assert seat.bank == pytest.approx(1.0 - (0.6 - OFFTURN_ALLOWANCE))
    assert not seat.charge(clock, 0.1, offturn=0.6)  # overdrawn: the seat is timed out
    assert seat.stats.offturn_cpu == pytest.approx(1.2)
