"""The bot sandbox: tiers and probe, launcher, per-bot cgroups, the bot runtime venv.

See docs/sandbox.md. The child-side hardening lives in :mod:`bots.jail`.
"""

from arena_runner.sandbox.cgroups import BotCgroup, BotControl, janitor
from arena_runner.sandbox.launch import SANDBOX_UID, spawn_sandboxed
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import ProbeResult, SandboxUnavailable, Tier, probe, require

__all__ = [
    "SANDBOX_UID",
    "BotCgroup",
    "BotControl",
    "Limits",
    "ProbeResult",
    "SandboxUnavailable",
    "Tier",
    "janitor",
    "probe",
    "require",
    "spawn_sandboxed",
]
