"""Blank sandboxes: a runner started ``warm`` keeps hardened bot processes ready before
their bots are known; a driver takes one, the bot is copied in and named by ``start``."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from arena_runner import BotRunner, FaultKind, play_match, resolve_policy
from arena_runner.cpu import leaf_pid
from arena_runner.pipes import wait_readable
from arena_runner.process import BotProcess
from bots.protocol import start_message
from bots.registry import resolve_bot
from bots.runtime import BotSession
from engine import Game, RulesConfig
from engine.observation_stream import ObservationEncoder
from tests.support.runner import pid_gone

CONFIG = RulesConfig(players=3, vp_to_win=5)


def test_drivers_take_blank_sandboxes_and_the_pool_is_refilled(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise ImportError('missing dependency')\n")
    with BotRunner(resolve_policy(), warm=2) as runner:
        blanks = [b.pid for b in runner._blanks]
        assert len(blanks) == 2
        first = runner.driver(resolve_bot("random"))
        second = runner.driver(resolve_bot("heuristic"))
        bad = runner.driver(broken)
        runner.settle()
        assert [first.pid, second.pid] == blanks  # the oldest blanks, in order
        assert bad.pid not in blanks and runner._blanks == []  # none started during the game
        started = [first.pid, second.pid, bad.pid]
        result = play_match(CONFIG, 7, [first, second, bad])
        assert result.voided is None and result.replay.result is not None
        assert [s.name for s in (first, second)] == ["random", "heuristic"]
        assert result.faults[0] == [] and result.faults[1] == []
        assert [f.kind for f in result.faults[2]] == [FaultKind.ERROR]  # as when spawned for it
        assert "missing dependency" in result.faults[2][0].message
        assert result.stats[0].decisions > 0 and result.stats[1].decisions > 0
        runner.release_all([first, second, bad])  # the game is over: replacements start
        runner.settle()
        assert len(runner._blanks) == 2
        started += [b.pid for b in runner._blanks]
        again = runner.driver(resolve_bot("random"))
        assert again.pid == started[3]
    assert all(pid is not None and pid_gone(pid) for pid in started)


def test_a_blank_runtime_refuses_a_start_that_names_no_bot() -> None:
    game = Game.new(CONFIG, 1)
    observation = ObservationEncoder().encode(game.observe(0, with_legal=False))
    message = start_message(0, CONFIG.to_dict(), game.layout.to_dict(), 1, observation)
    reply = BotSession(None, None).handle(message)
    assert reply["type"] == "error" and "must name it" in reply["message"]
    named = start_message(
        0, CONFIG.to_dict(), game.layout.to_dict(), 1, observation, str(resolve_bot("random"))
    )
    assert BotSession(None, None).handle(named)["type"] == "ready"


def test_a_driver_waits_for_a_blank_being_started_rather_than_starting_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with BotRunner(resolve_policy(), warm=1) as runner:
        gate, started = threading.Event(), []
        start_blank = runner._start_blank

        def held_start(spare: int) -> None:  # the replacement's start, held at the gate
            gate.wait(10)
            start_blank(spare)
            with runner._lock:
                started.append(runner._blanks[-1].pid)

        monkeypatch.setattr(runner, "_start_blank", held_start)
        taken = runner.driver(resolve_bot("random"))
        runner.release(taken)  # its replacement is being started now
        assert runner._pending and runner._blanks == []
        replacement = runner._pending[0]
        threading.Timer(0.2, gate.set).start()
        driver = runner.driver(resolve_bot("random"))  # waits for it
        assert replacement.done() and runner._blanks == []
        assert driver.pid is not None and [driver.pid] == started != [taken.pid]
        assert len(runner.drivers) == 1


def test_settle_waits_until_the_blank_sandboxes_have_booted() -> None:
    """Ready means booted (runtime imported, jail reported), not just spawned: a blank
    still starting up would start on the next game's clock."""
    with BotRunner(resolve_policy(), warm=2) as runner:
        outputs = [blank.popen.stdout for blank in runner._blanks]
        fds = [out.fileno() for out in outputs if out is not None]
        just_spawned = [wait_readable(fd, 0) for fd in fds]
        runner.settle()
        assert len(fds) == 2 and all(wait_readable(fd, 0) for fd in fds)
        assert not all(just_spawned)  # control: spawning alone did not boot them


def _found(blank: BotProcess) -> bool:
    """Its interpreter located (and, with cgroups, moved into its interpreter cgroup)."""
    if not blank.chain or blank.chain[-1] != leaf_pid(blank.pid):
        return False
    child = None if blank.cgroup is None else blank.cgroup.interpreter
    return child is None or (
        blank.chain[-1] in blank.cgroup.pids()
        and str(blank.chain[-1]) in (child / "cgroup.procs").read_text().split()
    )


@pytest.mark.parametrize("finding", [True, False])
def test_a_blank_sandboxs_bot_is_found_in_the_background_before_a_driver_takes_it(
    monkeypatch: pytest.MonkeyPatch, finding: bool
) -> None:
    """The runner's background thread locates each booted blank's interpreter (and moves
    it into its interpreter cgroup), so a driver taking it does not do it on the game's
    clock; the control: without that step, a settled blank is not yet found."""
    if not finding:
        monkeypatch.setattr(BotRunner, "_find_bots", lambda self: None)
    with BotRunner(resolve_policy(), warm=2) as runner:
        runner.settle()
        assert [_found(b) for b in runner._blanks] == [finding, finding]
        drivers = [runner.driver(resolve_bot("random")) for _ in range(3)]
        result = play_match(CONFIG, 3, drivers)
        assert result.voided is None and all(f == [] for f in result.faults)
        runner.release_all(drivers)  # their replacements are found as well
        runner.settle()
        assert [_found(b) for b in runner._blanks] == [finding] * 2  # two were taken


def test_closing_a_runner_does_not_wait_out_a_blank_that_never_boots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The background step gives up on a blank's boot once the runner closes, instead of
    holding the close for ``spawn_seconds`` (30 s)."""
    import arena_runner.runner as runner_module

    def never_readable(fd: int, timeout: float) -> bool:
        time.sleep(timeout)
        return False

    monkeypatch.setattr(runner_module, "wait_readable", never_readable)
    runner = BotRunner(resolve_policy(), warm=1)
    time.sleep(0.3)
    assert runner._finding and not runner._finding[0].done()  # still waiting for its boot
    began = time.monotonic()
    runner.close()
    assert time.monotonic() - began < runner.policy.limits.spawn_seconds / 3
