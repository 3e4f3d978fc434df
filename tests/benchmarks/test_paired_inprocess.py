"""The paired in-process tuning harness: a search bot's games are reproducible there
(its clocks frozen, its samples capped), so two runs of one variant pair exactly."""

from __future__ import annotations

import pytest

from benchmarks import paired_inprocess as harness


def test_a_search_game_is_the_same_game_twice() -> None:
    harness._load("search", 2)
    first = harness.play(500_001)
    assert harness.play(500_001) == first
    assert first[0] == 500_001 and first[1] in (0, 1) and 2 <= first[2] <= 12


def test_the_paired_difference_of_a_bot_with_itself_is_nil(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert harness.main(["heuristic", "heuristic", "--games", "4", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split(":")[1] == lines[1].split(":")[1]  # the same wins and points
    assert "+0.000 wins a game" in lines[2]
