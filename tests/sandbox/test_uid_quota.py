"""Per-user kernel quotas are per seat: three bots that use up the pipe-buffer quota
cannot shrink a fourth bot's pipes, because every seat runs as a uid of its own.

The kernel counts pipe buffers per user (``fs.pipe-user-pages-soft``); past it, an
unprivileged user's new pipes get 2 pages instead of 16. Three hogs fill that quota with
large pipes (``F_SETPIPE_SZ``) and hold them; the victim makes a pipe on every decision
and logs its capacity. Positive control: the same four bots with one uid for every seat
(what the sandbox did before the uid pool) — the victim's pipes shrink. Inotify
instances, the other per-user quota of the report, are denied by seccomp outright
(``test_seccomp_alone.py``)."""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from pathlib import Path

import pytest

from arena_runner import BotRunner, play_match, resolve_policy
from arena_runner.sandbox.tiers import Tier
from bots.builtin.random_bot import RandomPlayer
from engine import RulesConfig
from engine.rng import new_seed
from tests.support.hostile import TEST_UID
from tests.support.sandbox import need_tier

HOG = """
import fcntl, os
from bots import Player

HELD = []


def hog():
    # big pipes first, then smaller ones into what is left of the user's quota
    size = 1 << 20
    while size >= 4096 and len(HELD) < 40:
        try:
            r, w = os.pipe()
        except OSError:
            break
        try:
            fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, size)
        except OSError:
            os.close(r)
            os.close(w)
            size //= 2
            continue
        HELD.append((r, w))


class Hog(Player):
    def act(self, observation):
        if not HELD:
            hog()
            print("HOG", len(HELD), flush=True)
        return self.rng.choice(observation.legal_actions)
"""

VICTIM = """
import fcntl, os
from bots import Player


class Victim(Player):
    def act(self, observation):
        r, w = os.pipe()
        print("PIPE", fcntl.fcntl(w, fcntl.F_GETPIPE_SZ), flush=True)
        os.close(r)
        os.close(w)
        return self.rng.choice(observation.legal_actions)
"""


def smallest_victim_pipe(*, one_uid: bool) -> int:
    """Play a game with three hogs and the victim (seat 3); the victim's smallest pipe."""
    need_tier(Tier.FULL)
    if os.geteuid() != 0:
        pytest.skip("uids are dropped only by a root worker")
    policy = resolve_policy(Tier.FULL)
    if one_uid:
        policy = dataclasses.replace(policy, uid=TEST_UID)
    with tempfile.TemporaryDirectory(prefix="catan-quota-") as tmp:
        hog, victim = Path(tmp) / "hog.py", Path(tmp) / "victim.py"
        hog.write_text(HOG)
        victim.write_text(VICTIM)
        with BotRunner(policy) as runner:
            drivers = [runner.driver(hog, f"hog{i}") for i in range(3)]
            drivers.append(runner.driver(victim, "victim"))
            result = play_match(
                RulesConfig(players=4, vp_to_win=5),
                new_seed(),
                drivers,
                decision_timeout=2.0,
                time_bank=5.0,
                autopilot=RandomPlayer,
            )
    assert all(not faults for faults in result.faults), result.faults
    held = [int(n) for log in result.logs[:3] for n in re.findall(r"HOG (\d+)", log)]
    assert len(held) == 3 and all(n > 0 for n in held), result.logs[:3]
    sizes = [int(n) for n in re.findall(r"PIPE (\d+)", result.logs[3])]
    assert len(sizes) > 5, result.logs[3][-500:]
    return min(sizes)


def test_three_bots_cannot_use_up_a_fourths_pipe_quota() -> None:
    assert smallest_victim_pipe(one_uid=False) == 65536  # a default pipe: 16 pages


def test_positive_control_one_shared_uid_lets_them() -> None:
    assert smallest_victim_pipe(one_uid=True) < 65536
