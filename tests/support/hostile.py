"""Plays a real match (``play_match``) with one hostile bot at the FULL tier and checks
what must hold whatever the attack: the game finished, the other seats were unaffected,
and nothing of the match is left running (processes of its uid, cgroups, work dir)."""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena_runner import BotRunner, MatchResult, SubprocessDriver, play_match, resolve_policy
from arena_runner.sandbox import cgroups
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import Tier
from arena_runner.sandbox.uids import claim_uid
from bots.builtin.random_bot import RandomPlayer
from engine import RulesConfig
from engine.replay import verify
from tests.support.sandbox import need_tier

HOSTILE = Path(__file__).parents[1] / "sandbox" / "hostile"
CONFIG = RulesConfig(players=3, vp_to_win=5)
SEED = 5
VICTIM = (
    "from bots import Player\n\nSECRET = 'my private strategy'\n\n\nclass Victim(Player):\n"
    "    def act(self, observation):\n        return self.rng.choice(observation.legal_actions)\n"
)
SLOW_VICTIM = VICTIM.replace(
    "        return self.rng",
    "        import time\n        end = time.process_time() + 0.002\n"
    "        while time.process_time() < end:\n            pass\n        return self.rng",
)
"""A victim that thinks 2 ms of CPU per decision (so the others' turns take real time)."""
TEST_UIDS = range(60000, 60256)
"""Uids for tests that run their bots under a uid of their own: outside the sandbox
pool, so no bot of another test worker's games (which claim pool uids) is ever counted
as this worker's leftover."""
_TEST_UID_CLAIM = claim_uid(TEST_UIDS)  # held (flock) for the life of the test worker
TEST_UID = _TEST_UID_CLAIM.uid
"""A uid of our own, so "nothing of this match left" is checkable on a shared host."""


@dataclass
class Played:
    result: MatchResult
    victim_file: Path
    log: str
    """The hostile seat's log (what it printed)."""


def sandbox_processes(uid: int = TEST_UID) -> list[str]:
    """Processes whose real uid is ``uid`` (pid, name, state). The uid is read from
    ``status``: a non-dumpable process's ``/proc`` entry is owned by root."""
    found = []
    for pid, _, real_uid in cgroups.proc_table():
        if real_uid == uid:
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            found.append(stat[: stat.index(")") + 3])
    return found


def our_cgroups() -> list[Path]:
    """Bot cgroups of this worker still present."""
    if cgroups.version() is None:
        return []
    prefix = f"{cgroups.PREFIX}{os.getpid()}-"
    return [p for base in cgroups._bases().values() for p in base.glob(f"{prefix}*")]


def play_hostile(
    name: str,
    params: Callable[[list[SubprocessDriver], Path], dict[str, Any]] = lambda d, v: {},
    *,
    decision: float = 0.25,
    bank: float = 1.0,
    limits: Limits | None = None,
    victim_source: str = VICTIM,
    warm: int = 0,
    policy_changes: dict[str, Any] | None = None,
) -> Played:
    """Seat 0: ``hostile/<name>.py`` with ``PARAMS`` filled in; seats 1, 2: a private
    random bot. Checks the invariants and returns what the parent saw. ``warm``: the
    runner's blank sandboxes (the bots then start in sandboxes made before them).
    ``policy_changes``: fields of the sandbox policy to change (tests of single layers)."""
    need_tier(Tier.FULL)
    policy = dataclasses.replace(
        resolve_policy(Tier.FULL),
        uid=TEST_UID,
        limits=limits or Limits(import_seconds=5.0),
        **(policy_changes or {}),
    )
    with tempfile.TemporaryDirectory(prefix="catan-hostile-") as tmp:
        victim = Path(tmp) / "victim.py"
        victim.write_text(victim_source)
        with BotRunner(policy, warm=warm) as runner:
            victims = [runner.driver(victim, "victim") for _ in range(2)]
            source = (HOSTILE / f"{name}.py").read_text()
            filled = repr(params(victims, victim))
            bot = Path(tmp) / f"{name}.py"
            bot.write_text(source.replace("PARAMS: dict = {}", f"PARAMS: dict = {filled}"))
            hostile = runner.driver(bot, name)
            result = play_match(
                CONFIG,
                SEED,
                [hostile, *victims],
                decision_timeout=decision,
                time_bank=bank,
                autopilot=RandomPlayer,
            )
            workdir = runner.workdir
        assert not workdir.exists()
    verify(result.replay)
    assert result.outcome.turns > 0 and result.replay.result is not None
    assert result.tier == "FULL" and result.voided is None
    for seat in (1, 2):
        stats = result.stats[seat]
        assert result.faults[seat] == [], result.faults[seat]
        assert stats.decisions > 0 and stats.defaults == 0 and stats.autopilot == 0
    left = sandbox_processes()
    assert left == [], f"sandbox processes outlived the match: {left}"
    assert our_cgroups() == [], "a bot cgroup outlived the match"
    return Played(result, victim, result.logs[0])


def kinds(played: Played) -> list[str]:
    return [f.kind.value for f in played.result.faults[0]]
