"""A bot's last output is never lost: what it wrote to stderr before a reply is in the
log taken after that reply, and what it wrote before it stopped is in the log once the
runner has stopped it — every time, however late the log's reader thread runs."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from arena_runner import SubprocessDriver, play_match
from arena_runner import logs as logs_module
from arena_runner.logs import CappedLog, LogPump
from engine import RulesConfig
from tests.support.runner import policy_with

END_BOT = """
import sys
from bots import Player

FILLER = ("x" * 99 + "\\n") * {filler_lines}
SOME = "y" * 999 + "\\n"


class LastWords(Player):
    games = 0

    def on_game_start(self, seat, observation):
        type(self).games += 1
        self.acts = 0

    def act(self, observation):
        self.acts += 1
        sys.stderr.write(SOME + f"ACT {{self.acts}}\\n")
        return self.rng.choice(observation.legal_actions)

    def on_game_end(self, observation, outcome):
        sys.stderr.write(FILLER + f"END game={{self.games}} acts={{self.acts}}\\n")
        sys.stderr.flush()
"""


def _lagging(nap: float) -> Callable[[int], bytes]:
    """The pipe read of a reader thread the machine is slow to run (``nap`` seconds
    after each chunk)."""

    def read(fd: int) -> bytes:
        chunk = os.read(fd, logs_module.CHUNK)
        if threading.current_thread().name == "bot-stderr":
            time.sleep(nap)
        return chunk

    return read


def _pipe_pump(cap: int = 1 << 20) -> tuple[int, int, CappedLog, LogPump]:
    read, write = os.pipe()
    log = CappedLog(cap)
    return read, write, log, LogPump(read, log)


def _finish(read: int, write: int, pump: LogPump) -> None:
    os.close(write)
    pump.finish(1.0)
    os.close(read)


def test_collect_holds_what_the_pipe_held() -> None:
    read, write, log, pump = _pipe_pump()
    for i in range(200):
        os.write(write, f"PREDICTIONS {i}\n".encode())
        pump.collect()
        assert log.take() == f"PREDICTIONS {i}\n"
    _finish(read, write, pump)


def test_a_chunk_the_reader_thread_holds_but_has_not_logged_is_not_missed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The flaky chance test's race, made certain: the reader thread has taken the
    bot's last line out of the pipe but is slow to put it in the log (a loaded machine
    does not schedule it). ``collect`` must wait for it, not find an empty pipe and go."""
    taken = threading.Event()

    def slow_read(fd: int) -> bytes:
        chunk = os.read(fd, logs_module.CHUNK)
        if threading.current_thread().name == "bot-stderr" and chunk:
            taken.set()
            time.sleep(0.3)
        return chunk

    monkeypatch.setattr(logs_module, "_read", slow_read)
    read, write, log, pump = _pipe_pump()
    os.write(write, b"PREDICTIONS {}\n")
    assert taken.wait(5.0)
    pump.collect()
    assert log.take() == "PREDICTIONS {}\n"
    _finish(read, write, pump)


def test_finish_drains_what_a_stopped_process_wrote_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Far more than a pipe holds, written just before the process exits, while the
    reader thread lags (a 0.1 s nap each time it sees the pipe ready): all of it is in
    the log after ``finish``, the last pipeful included."""

    wait = logs_module._wait

    def lagging_wait(poller: select.poll) -> bool:
        ready = wait(poller)
        time.sleep(0.1)
        return ready

    monkeypatch.setattr(logs_module, "_wait", lagging_wait)
    code = "import sys; sys.stderr.write('x' * 1_000_000 + '\\nLAST\\n')"
    popen = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
    assert popen.stderr is not None
    log = CappedLog(4 << 20)
    pump = LogPump(popen.stderr.fileno(), log)
    popen.wait(30)
    pump.finish(5.0)
    text = log.take()
    popen.stderr.close()
    assert text.endswith("\nLAST\n") and len(text) == 1_000_006


def test_finish_is_bounded_when_a_leftover_holds_the_pipe_open() -> None:
    read, write, log, pump = _pipe_pump()
    os.write(write, b"before the stop\n")
    began = time.monotonic()
    pump.finish(0.3)
    assert time.monotonic() - began < 1.0
    assert log.take() == "before the stop\n"
    os.write(write, b"after\n")  # no longer read: the runner may close its end
    os.close(write)
    os.close(read)


def test_collect_is_not_held_up_by_a_bot_that_keeps_writing() -> None:
    code = "import sys\nwhile True: sys.stderr.write('y' * 4096)"
    popen = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
    assert popen.stderr is not None
    pump = LogPump(popen.stderr.fileno(), CappedLog())
    try:
        for _ in range(20):
            began = time.monotonic()
            pump.collect()
            assert time.monotonic() - began < 1.0
    finally:
        popen.kill()
        popen.wait()
        pump.finish(1.0)
        popen.stderr.close()


@pytest.mark.slow  # a soak over many games (~40 s of test time): make test runs it
@pytest.mark.parametrize("filler_lines", [0, 8000])
def test_a_bots_last_decision_and_game_end_output_is_in_its_log_every_game(
    tmp_path: Path, filler_lines: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Real bot processes reused for many games, writing at every decision and (none or
    800 KB) at the game's end, their reader threads lagging (a nap after each chunk, as
    on a loaded machine): each game's log holds every decision's line and ends with the
    end-of-game line; after the runner stops them, nothing more is owed."""
    monkeypatch.setattr(logs_module, "_read", _lagging(0.01))
    bot = tmp_path / "last_words.py"
    bot.write_text(END_BOT.format(filler_lines=filler_lines))
    policy = policy_with(log_bytes=16 << 20)
    drivers = [SubprocessDriver(bot, policy=policy) for _ in range(3)]
    try:
        for game in range(1, 6 if filler_lines else 13):
            result = play_match(RulesConfig(players=3), game, drivers, decision_timeout=5.0)
            assert result.all_faults == []
            for log in result.logs:
                last = log.splitlines()[-1]
                assert last.startswith(f"END game={game} acts="), log[-300:]
                acts = int(last.rsplit("=", 1)[1])
                found = [x for x in log.splitlines() if x.startswith("ACT ")]
                assert acts > 0 and found == [f"ACT {n}" for n in range(1, acts + 1)]
    finally:
        for driver in drivers:
            driver.close()
    assert all(driver.take_log() == "" for driver in drivers)
