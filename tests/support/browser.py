"""What the browser tests share: where screenshots go, the password their accounts
use, the quick limits of the matches they play."""

from __future__ import annotations

from pathlib import Path

SHOTS = Path(__file__).resolve().parents[2] / ".artifacts" / "screenshots"
PASSWORD = "a-long-pass-4521"
