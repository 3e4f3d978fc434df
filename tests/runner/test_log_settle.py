"""A bot's last stderr lines before its reply belong to the log taken after the reply."""

from __future__ import annotations

import os

from arena_runner.logs import CappedLog, drain_into, settle


def test_settle_waits_for_what_is_already_in_the_pipe() -> None:
    for _ in range(50):
        read, write = os.pipe()
        log = CappedLog()
        thread = drain_into(read, log)
        os.write(write, b"PREDICTIONS {}\n")
        settle(read, log)
        assert log.take() == "PREDICTIONS {}\n"
        os.close(write)
        thread.join(1.0)
        os.close(read)


def test_settle_returns_on_a_quiet_pipe_and_a_closed_one() -> None:
    read, write = os.pipe()
    log = CappedLog()
    thread = drain_into(read, log)
    settle(read, log)
    assert log.take() == ""
    os.close(write)
    thread.join(1.0)
    os.close(read)
    settle(read, log)  # closed: returns at once
