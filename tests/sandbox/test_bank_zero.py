"""No innocent forfeits (issue 19): sandboxed ``random`` bots at a time bank of 0, with
a CPU burner on every core, are never forfeited (before, the tail of a reply was charged
as off-turn CPU with a 1 ms allowance: 2 forfeits in 98 games). The full run is
``make bench-bank-zero`` (docs/RELIABILITY.md); the deterministic checks of the rule,
with their controls, are in tests/runner/test_fair_clock.py."""

from __future__ import annotations

import pytest

from arena_runner.sandbox.tiers import Tier
from benchmarks.bank_zero import play
from tests.support.sandbox import need_tier

pytestmark = pytest.mark.serial  # it loads every core on purpose


def test_random_bots_at_bank_zero_under_cpu_load_are_never_forfeited() -> None:
    need_tier(Tier.FULL)
    tally = play(3, seed="bank-zero-test")
    assert tally.games == 3 and tally.decisions > 1000
    assert tally.forfeits == [], tally.forfeits
