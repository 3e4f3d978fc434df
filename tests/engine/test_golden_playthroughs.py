"""Whole seeded games must play exactly as checked in (any rules change shows up here)."""

from __future__ import annotations

import difflib

import pytest

from tests.engine.golden import DATA, GAMES, render


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
            f"`python -m tests.engine.golden`\n{diff}"
        )


def test_golden_games_end_by_victory_and_cover_the_rules() -> None:
    text = "".join((DATA / f"{name}.txt").read_text() for name in GAMES)
    for kind in ("roll", "discard", "robber", "knight", "bank", "city", "settle", "buy"):
        assert f" {kind}" in text, f"no {kind} in any golden game"
    assert text.count("'termination': 'victory'") == len(GAMES)
