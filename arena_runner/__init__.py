"""The match runner: plays games between bots, each behind a :class:`SeatDriver`.

Untrusted bots run in their own process (:class:`SubprocessDriver`, speaking
:mod:`bots.protocol`); trusted built-ins may run in-process (:class:`InProcessDriver`).
Plain Python, no Django.
"""

from arena_runner.defaults import safe_default
from arena_runner.drivers import InProcessDriver, SeatDriver
from arena_runner.match import DEFAULT_DECISION_TIMEOUT, bot_seed, play_match
from arena_runner.process import kill_bot_process, spawn_bot_process
from arena_runner.result import Fault, FaultKind, MatchResult, SeatStats
from arena_runner.subprocess_driver import SubprocessDriver

__all__ = [
    "DEFAULT_DECISION_TIMEOUT",
    "Fault",
    "FaultKind",
    "InProcessDriver",
    "MatchResult",
    "SeatDriver",
    "SeatStats",
    "SubprocessDriver",
    "bot_seed",
    "kill_bot_process",
    "play_match",
    "safe_default",
    "spawn_bot_process",
]
