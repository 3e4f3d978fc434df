"""What the browser tests share: where screenshots go, the password their accounts
use, the quick limits of the matches they play."""

from __future__ import annotations

from pathlib import Path

from catan_arena.matches.services import MatchLimits

SHOTS = Path(__file__).resolve().parents[2] / ".artifacts" / "screenshots"
PASSWORD = "a-long-pass-4521"
FAST = MatchLimits(decision_seconds=0.3, time_bank_seconds=1.0)
