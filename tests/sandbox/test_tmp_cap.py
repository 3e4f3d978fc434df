"""Below the bwrap tiers a bot's tmp is a folder of the worker's disk: RLIMIT_FSIZE caps
each file, and after every reply the whole folder is checked against the tmpfs size the
bwrap tiers give, so a bot writing many files cannot fill the disk. Positive control:
with the cap lifted, the same bot writes all it wants."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

from arena_runner import BotRunner, MatchResult, play_match, resolve_policy
from arena_runner.result import FaultKind
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import Tier
from bots.builtin.random_bot import RandomPlayer
from engine import RulesConfig
from engine.rng import new_seed
from tests.support.hostile import TEST_UID, VICTIM
from tests.support.sandbox import need_tier

FILLER = """
import os
from bots import Player


class Filler(Player):
    written = 0

    def act(self, observation):
        if Filler.written < 6:  # 6 files of 6 MiB: each under RLIMIT_FSIZE, 36 MiB in all
            with open(f"fill{Filler.written}", "wb") as out:
                out.write(os.urandom(6 << 20))
            Filler.written += 1
            print("WROTE", Filler.written, flush=True)
        return self.rng.choice(observation.legal_actions)
"""


def play_filler(tmp_bytes: int) -> MatchResult:
    need_tier(Tier.NO_NAMESPACES)
    policy = dataclasses.replace(
        resolve_policy(Tier.NO_NAMESPACES), uid=TEST_UID, limits=Limits(tmp_bytes=tmp_bytes)
    )
    with tempfile.TemporaryDirectory(prefix="catan-tmpcap-") as tmp:
        filler, victim = Path(tmp) / "filler.py", Path(tmp) / "victim.py"
        filler.write_text(FILLER)
        victim.write_text(VICTIM)
        with BotRunner(policy) as runner:
            drivers = [runner.driver(filler, "filler")]
            drivers += [runner.driver(victim, f"victim{i}") for i in range(2)]
            return play_match(
                RulesConfig(players=3, vp_to_win=5),
                new_seed(),
                drivers,
                decision_timeout=2.0,
                time_bank=5.0,
                autopilot=RandomPlayer,
            )


def test_a_bot_filling_its_tmp_past_the_cap_is_stopped() -> None:
    result = play_filler(16 << 20)
    faults = result.faults[0]
    assert faults and faults[0].kind is FaultKind.RESOURCE, faults
    assert "its tmp holds" in faults[0].message and "16,777,216" in faults[0].message
    assert "WROTE 3" in result.logs[0] and "WROTE 4" not in result.logs[0]
    assert result.forfeits[0] is not None and result.faults[1:] == [[], []]


def test_positive_control_without_the_cap_it_writes_it_all() -> None:
    result = play_filler(1 << 40)
    assert result.faults[0] == [] and "WROTE 6" in result.logs[0]
