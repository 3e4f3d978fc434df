"""The paired in-process tuning harness: a search bot's games are reproducible there
(its clocks frozen, its samples capped), so two runs of one variant pair exactly."""

from __future__ import annotations

from pathlib import Path

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
    args = ["heuristic", "heuristic", "--games", "4", "--jobs", "1", "--no-store"]
    assert harness.main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split(":")[1] == lines[1].split(":")[1]  # the same wins and points
    assert "+0.000 wins a game" in lines[2]


def _variant(folder: Path, name: str) -> str:
    """A scratch variant file: the heuristic under the bot name ``name``."""
    path = folder / "variant.py"
    path.write_text(
        "from bots.builtin.heuristic import HeuristicPlayer\n"
        f"class Variant(HeuristicPlayer):\n    name = {name!r}\n"
    )
    return str(path)


def test_stored_games_are_read_back_and_a_code_change_replays_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _variant(tmp_path, "first")
    store = ["--store", str(tmp_path / "store"), "--jobs", "1", "--seed", "600000"]

    def run(games: int) -> str:
        assert harness.main([spec, "--games", str(games), *store]) == 0
        return capsys.readouterr().out.splitlines()[0]

    first = run(2)
    assert "0 stored" in first
    again = run(3)
    assert "2 stored" in again  # only the third game is played
    _variant(tmp_path, "second")  # the bot's own file changed: nothing stored holds
    replayed = run(3)
    assert "0 stored" in replayed
    assert replayed.split("(")[0] == again.split("(")[0]  # the same games, the same result
