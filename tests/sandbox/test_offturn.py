"""A bot frozen off turn cannot run: not even with a POSIX timer that sends it SIGCONT
(the trick that woke a SIGSTOPped bot: 1 s of CPU per second "frozen"). Two layers stop
it, each shown alone: the cgroup v2 freezer (a frozen task ignores SIGCONT) and seccomp
(no POSIX timers). The positive control turns both off and the trick works; what it
gained off turn is then charged to its time bank."""

from __future__ import annotations

from typing import Any

from arena_runner.seats import OFFTURN_ALLOWANCE
from tests.sandbox.conftest import need_cgroups
from tests.sandbox.hostile_harness import SLOW_VICTIM, Played, play_hostile

WITHOUT_SECCOMP = ("rlimits", "no_new_privs", "landlock")
BANK = 5.0


def _play(**policy_changes: Any) -> tuple[Played, float, float]:
    played = play_hostile(
        "sigcont_timer",
        decision=0.5,
        bank=BANK,
        victim_source=SLOW_VICTIM,
        policy_changes=policy_changes,
    )
    stats = played.result.stats[0]
    others = sum(s.total for s in played.result.stats[1:])
    assert others > 0.1, others
    return played, stats.offturn_cpu, others


def _quiet(offturn: float, others: float) -> bool:
    """Frozen: only the moments between a reply and its freeze (~0.01-0.04 s a game).
    The unprotected control runs for seconds when alone, ~0.5 s on a loaded machine."""
    return offturn < min(0.15, 0.05 * others + 0.02)


def test_the_full_sandbox_gives_no_cpu_off_turn() -> None:
    need_cgroups()
    played, offturn, others = _play()
    assert "timer_create denied" in played.log
    assert _quiet(offturn, others), (offturn, others)


def test_the_cgroup_freezer_alone_holds_against_the_sigcont_timer() -> None:
    need_cgroups()
    played, offturn, others = _play(jail_layers=WITHOUT_SECCOMP)
    assert "timer_create armed" in played.log  # the timer runs: only the freezer holds
    assert _quiet(offturn, others), (offturn, others)


def test_seccomp_alone_denies_the_timer_under_sigstop() -> None:
    played, offturn, others = _play(cgroups=False)
    assert "timer_create denied" in played.log
    assert _quiet(offturn, others), (offturn, others)


def test_positive_control_sigstop_without_seccomp_runs_and_pays_for_it() -> None:
    # Back to back with its protected twin, so both see the same load on the machine
    # (alone the control runs ~3 s off turn; with both cores busy, ~0.1-0.5 s).
    _, protected, _ = _play(cgroups=False)
    played, offturn, others = _play(cgroups=False, jail_layers=WITHOUT_SECCOMP)
    assert "timer_create armed" in played.log
    assert offturn > max(0.04, 3 * protected), (offturn, protected, others)
    stats = played.result.stats[0]
    decisions = stats.decisions
    charged = BANK - stats.bank_left
    assert charged >= min(BANK, offturn - decisions * OFFTURN_ALLOWANCE) - 0.5, (
        charged,
        offturn,
        decisions,
    )
