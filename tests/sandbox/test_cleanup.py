"""A sandbox killed at any point of its start-up leaves no process behind (not even a
zombie: the worker is a subreaper and reaps what bwrap orphans)."""

from __future__ import annotations

import dataclasses
import time

from arena_runner import kill_bot_process, resolve_policy, spawn_bot_process
from arena_runner.sandbox.tiers import Tier
from arena_runner.workdir import make_workdir, remove_workdir
from tests.support.hostile import TEST_UID, sandbox_processes
from tests.support.sandbox import need_tier


def test_sandboxes_killed_while_starting_leave_nothing() -> None:
    need_tier(Tier.FULL)
    policy = dataclasses.replace(resolve_policy(Tier.FULL), uid=TEST_UID)
    workdir = make_workdir()
    try:
        for i in range(40):
            process = spawn_bot_process(None, policy, workdir)
            time.sleep((i % 20) * 0.002)  # 0 to 38 ms: every stage of bwrap's set-up
            kill_bot_process(process)
            assert sandbox_processes() == [], f"after a kill {i % 20 * 2} ms in"
    finally:
        remove_workdir(workdir)
