"""Whole seeded games must play exactly as checked in (any rules change shows up here)."""

from __future__ import annotations

import difflib
import re
from collections import Counter

import pytest

from tests.support.golden import DATA, GAMES, render


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playthrough_matches_golden_file(name: str) -> None:
    config, seed = GAMES[name]
    expected = (DATA / f"{name}.txt").read_text()
    actual = render(config, seed)
    if actual != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(True), actual.splitlines(True), "golden", "now", n=2
                )
            )[:60]
        )
        pytest.fail(
            f"{name} no longer plays as recorded; if intended, run "
            f"`python -m tests.support.golden`\n{diff}"
        )


STEP_LINE = re.compile(r"^\d{5} s\d \S+\s+(?P<chosen>.*?)(?: -> .*?)?  \| ", re.MULTILINE)
"""A step: number, seat, phase, the CHOSEN action (then its outcome and the legal list)."""
RULES_EXERCISED = (
    "roll", "discard", "robber", "knight", "bank", "city", "settle", "buy", "road",
    "monopoly", "plenty", "road-building", "offer", "accept", "confirm",
)  # fmt: skip


def chosen_kinds(text: str) -> Counter[str]:
    """How often each action kind was chosen (legal-action lists are not counted)."""
    return Counter(m["chosen"].split()[0] for m in STEP_LINE.finditer(text))


def test_golden_games_end_by_victory_and_cover_the_rules() -> None:
    text = "".join((DATA / f"{name}.txt").read_text() for name in GAMES)
    chosen = chosen_kinds(text)
    missing = [kind for kind in RULES_EXERCISED if not chosen[kind]]
    assert missing == [], f"no golden game chooses {missing}"
    assert text.count("'termination': 'victory'") == len(GAMES)


def test_coverage_counts_chosen_actions_not_legal_lists() -> None:
    # Negative control: a knight that is only ever legal, never chosen, is not coverage.
    line = "00041 s2 main             end  | 3: end knight buy\n"
    assert chosen_kinds(line) == Counter({"end": 1})
