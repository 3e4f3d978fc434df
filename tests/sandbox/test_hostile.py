"""Hostile bots in real matches at the FULL tier: each attack is blocked or turned into
the right fault, strike or forfeit, and the other seats play on unaffected."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from arena_runner import SubprocessDriver
from arena_runner.sandbox.limits import Limits
from tests.support.hostile import Played, kinds, play_hostile
from tests.support.sandbox import Listener

PROJECT = Path(__file__).resolve().parents[2]


def assert_blocked_and_clean(played: Played) -> None:
    """The attack ran, was blocked, and the bot then played a normal game."""
    assert "blocked" in played.log and "ESCAPED" not in played.log
    assert played.result.faults[0] == [], played.result.faults[0]
    assert played.result.forfeited == set()
    assert played.result.stats[0].defaults == 0


def assert_forfeited(played: Played, kind: str, strikes: int = 1) -> None:
    result = played.result
    assert kinds(played) == [kind] * strikes, result.faults[0]
    assert result.strikes[0] == strikes and result.forfeited == {0}
    assert result.stats[0].autopilot > 0  # the autopilot finished the game for it
    assert result.placings[0] == 3  # a forfeited bot is placed last
    assert result.replay.meta["forfeits"][0]["seat"] == 0
    assert result.replay.meta["strikes"] == [strikes, 0, 0]


@pytest.mark.parametrize("warm", [0, 3], ids=["fresh", "blank-sandboxes"])
def test_network(listener: Listener, warm: int) -> None:
    played = play_hostile("network", lambda d, v: {"port": listener.port}, warm=warm)
    assert_blocked_and_clean(played)
    assert listener.accepted == 0


def test_read_shadow() -> None:
    assert_blocked_and_clean(play_hostile("read_shadow"))


def test_read_project_files() -> None:
    paths = [str(PROJECT / "pyproject.toml"), str(PROJECT / ".git" / "config"), "/root"]
    assert_blocked_and_clean(play_hostile("read_project", lambda d, v: {"paths": paths}))


@pytest.mark.parametrize("warm", [0, 3], ids=["fresh", "blank-sandboxes"])
def test_read_another_bots_file(warm: int) -> None:
    played = play_hostile("read_other_bot", lambda d, v: {"other_bot": str(v)}, warm=warm)
    assert_blocked_and_clean(played)


def test_environment_is_empty() -> None:
    os.environ["CATAN_TEST_SECRET"] = "hunter2"
    try:
        assert_blocked_and_clean(play_hostile("environment"))
    finally:
        del os.environ["CATAN_TEST_SECRET"]


def test_write_outside_its_tmp(tmp_path: Path) -> None:
    outside = tmp_path / "evil.txt"
    assert_blocked_and_clean(play_hostile("write_outside", lambda d, v: {"outside": str(outside)}))
    assert not outside.exists()


def test_fork_bomb() -> None:
    played = play_hostile("fork_bomb")
    assert_forfeited(played, "error", strikes=3)
    assert "PermissionError" in played.result.faults[0][0].message


def test_memory_bomb() -> None:
    played = play_hostile("memory_bomb", bank=10.0)  # page faults cost CPU too
    assert_forfeited(played, "resource", strikes=3)
    assert "MemoryError" in played.result.faults[0][0].message


def test_endless_loop_spends_its_bank_and_is_killed() -> None:
    played = play_hostile("endless_loop", decision=0.2, bank=0.5)
    assert_forfeited(played, "timeout")
    message = played.result.faults[0][0].message
    # Killed by its CPU budget; on a starved machine the wall-clock cap may come first.
    assert "of CPU" in message or "wall clock" in message, message
    assert played.result.stats[0].cpu >= 0.4


def test_sleeping_through_its_turn_hits_the_wall_clock_cap() -> None:
    played = play_hostile("sleeper", decision=0.2, bank=0.5)
    assert_forfeited(played, "timeout")
    assert "wall clock" in played.result.faults[0][0].message
    # its hour's sleep cut at 0.2 + 0.5 + 0.1 s, plus the kill and reaping of its sandbox
    # (seconds on a loaded machine: 3.3 s seen once in CI beside a browser test run)
    assert played.result.stats[0].max < 10.0


def test_ctypes_raw_syscalls() -> None:
    assert_blocked_and_clean(play_hostile("ctypes_syscalls"))


def test_100_mb_to_stdout_is_capped() -> None:
    played = play_hostile("stdout_flood", decision=2.0, bank=5.0)
    assert played.result.faults[0] == []
    assert len(played.log) < 2 * Limits().log_bytes and "bytes dropped" in played.log


def test_flood_on_the_protocol_pipe() -> None:
    played = play_hostile("pipe_flood")
    assert_forfeited(played, "garbage")
    assert "longer than 1048576 bytes" in played.result.faults[0][0].message


def test_a_reply_too_many_is_a_fault_not_an_answer_to_the_next_prompt() -> None:
    """The bot answers its prompt itself (with the prompt's seq, read from the runtime's
    frame), then the runtime's own reply follows: that extra line is a fault at the next
    prompt, never its answer."""
    played = play_hostile("forger")
    assert "FORGED on fd" in played.log
    assert_forfeited(played, "garbage")
    # caught either waiting in the pipe before the next prompt, or read as the next
    # prompt's reply and refused for its old seq (when it arrives a moment late)
    message = played.result.faults[0][0].message
    assert "unasked" in message or "another prompt" in message, message


def test_garbage_reply() -> None:
    played = play_hostile("garbage")
    assert_forfeited(played, "garbage")
    assert "unreadable reply" in played.result.faults[0][0].message


def test_illegal_action() -> None:
    played = play_hostile("liar")
    assert_forfeited(played, "illegal", strikes=3)
    assert played.result.stats[0].defaults == 3


@pytest.mark.parametrize("warm", [0, 3], ids=["fresh", "blank-sandboxes"])
def test_crash_at_import(warm: int) -> None:
    played = play_hostile("crash_at_import", warm=warm)
    assert_forfeited(played, "crash")
    assert played.result.faults[0][0].step == 0
    assert played.result.stats[0].decisions == 0


def test_crash_mid_game() -> None:
    played = play_hostile("crash_midgame")
    assert_forfeited(played, "crash")
    assert "SIGSEGV" in played.result.faults[0][0].message
    assert played.result.stats[0].decisions == 6


def _pids(drivers: list[SubprocessDriver], victim: Path) -> dict[str, list[int]]:
    """The worker's pid and each victim's outer (bwrap) and inner (python) pids."""
    pids = [os.getpid()]
    for driver in drivers:
        process = driver.process
        assert process is not None
        deadline = time.monotonic() + 10
        while Path(f"/proc/{process.bot_pid}/comm").read_text().strip() == "bwrap":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        pids += [process.pid, process.bot_pid]
    return {"pids": pids}


@pytest.mark.parametrize("warm", [0, 3], ids=["fresh", "blank-sandboxes"])
def test_signal_or_ptrace_the_worker_and_other_bots(warm: int) -> None:
    played = play_hostile("signal_others", _pids, warm=warm)
    assert_blocked_and_clean(played)
    assert "kill(" in played.log
