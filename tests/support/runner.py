"""Bot files for the runner tests (a bot that plays, then misbehaves), the host's
sandbox policy with other limits, a process gone."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from arena_runner import SandboxPolicy, resolve_policy
from arena_runner.sandbox.limits import Limits

MISBEHAVING_AFTER = 20
"""Misbehaving test bots behave for this many of their own decisions first."""

BOT_TEMPLATE = """
import os, sys, time
from bots import Player
from engine.actions import MoveRobber

class {name}(Player):
    calls = 0

    def act(self, observation):
        self.calls += 1
        if self.calls > {after}:
            {misbehave}
        return self.rng.choice(observation.legal_actions)
"""

MISBEHAVIOURS = {
    "raising": 'raise RuntimeError("kaboom")',
    "exiting": "os._exit(7)",
    "hanging": "time.sleep(60)",
    "illegal": "return MoveRobber(observation.robber, None)",
    "printing": 'print("to stdout", self.calls, observation.clock); print("to stderr", '
    "file=sys.stderr)",
}


def write_bot(directory: Path, kind: str, after: int = MISBEHAVING_AFTER) -> Path:
    """A bot that plays randomly, then (after ``after`` decisions) misbehaves as ``kind``."""
    path = directory / f"{kind}_bot.py"
    source = BOT_TEMPLATE.format(name=kind.title(), after=after, misbehave=MISBEHAVIOURS[kind])
    path.write_text(source)
    return path


def policy_with(**limits: Any) -> SandboxPolicy:
    """The host's sandbox policy with some limits changed."""
    return dataclasses.replace(resolve_policy(), limits=Limits(**limits))


def pid_gone(pid: int) -> bool:
    """True once no process has this id (our children are reaped on close)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False
