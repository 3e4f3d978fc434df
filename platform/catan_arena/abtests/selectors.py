"""Reads on A/B tests: the running result in words."""

from __future__ import annotations

from catan_arena.abtests.models import ABTest


def describe(test: ABTest) -> str:
    """One line: pairs, mean difference, where the LLR stands between its bounds, and
    the verdict."""
    verdict = test.get_verdict_display() if test.verdict != ABTest.Verdict.PENDING else "running"
    return (
        f"{test.version_b} vs {test.version_a}: {test.pairs} pairs, "
        f"B {test.mean:+.2f} placing points a game; "
        f"LLR {test.llr:+.2f} in ({test.lower:.2f}, {test.upper:.2f}); {verdict}"
        + ("" if test.status != ABTest.Status.CANCELLED else " (cancelled)")
    )
