"""The match runner: plays games between bots, each behind a :class:`SeatDriver`.

Untrusted bots run in their own sandboxed process (:class:`SubprocessDriver`, speaking
:mod:`bots.protocol`, started by a :class:`BotRunner`); trusted built-ins may run
in-process (:class:`InProcessDriver`). Plain Python, no Django.
"""

from arena_runner.clock_limits import PLAY_DECISION_SECONDS
from arena_runner.defaults import safe_default
from arena_runner.drivers import InProcessDriver, SeatDriver
from arena_runner.match import play_match
from arena_runner.policy import SandboxPolicy, resolve_policy
from arena_runner.process import BotProcess, kill_bot_process, spawn_bot_process
from arena_runner.result import Fault, FaultKind, Forfeit, MatchResult, SeatStats
from arena_runner.runner import BotRunner
from arena_runner.sandbox.tiers import SandboxUnavailable, Tier
from arena_runner.seats import DEFAULT_MAX_STRIKES
from arena_runner.subprocess_driver import SubprocessDriver
from engine.rng import bot_seed

__all__ = [
    "DEFAULT_MAX_STRIKES",
    "PLAY_DECISION_SECONDS",
    "BotProcess",
    "BotRunner",
    "Fault",
    "FaultKind",
    "Forfeit",
    "InProcessDriver",
    "MatchResult",
    "SandboxPolicy",
    "SandboxUnavailable",
    "SeatDriver",
    "SeatStats",
    "SubprocessDriver",
    "Tier",
    "bot_seed",
    "kill_bot_process",
    "play_match",
    "resolve_policy",
    "safe_default",
    "spawn_bot_process",
]
