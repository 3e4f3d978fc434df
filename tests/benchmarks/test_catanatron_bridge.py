"""The catanatron bridge end to end, where its throwaway venv exists (made by
``benchmarks/strength_vs_catanatron.py`` from a catanatron checkout; skipped elsewhere:
catanatron is GPL and never a dependency of the product or of this suite, which only
starts the venv's python and reads what it prints)."""

from __future__ import annotations

import functools
import json
import subprocess

import pytest

from benchmarks.strength import play_game
from benchmarks.strength_vs_catanatron import BRIDGE, DEFAULT_VENV, REPO_ROOT, driver_for

PYTHON = DEFAULT_VENV / "bin" / "python"
KNOWN = {"MAIN: catanatron only: BuildRoad"}
"""catanatron lets a road go on past an opponent's settlement; our rules do not (the
bridge then plays another legal road)."""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not PYTHON.exists(), reason=f"no catanatron venv at {DEFAULT_VENV}"),
]


def test_the_mirror_agrees_with_our_engine_on_maps_and_legal_actions() -> None:
    done = subprocess.run(
        [PYTHON, BRIDGE / "selfcheck.py", "--layouts", "50", "--games", "2"],
        capture_output=True, text=True, env={"PYTHONPATH": str(REPO_ROOT)}, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["layouts"] == 50 and result["decisions"] > 300
    assert set(result["differences"]) <= KNOWN, result["examples"]


@pytest.mark.parametrize("player", ["value", "alphabeta"])
def test_a_catanatron_player_plays_a_whole_game_in_our_engine(player: str) -> None:
    driver = functools.partial(driver_for, str(PYTHON))
    record = play_game((player, "random", 1, 0.2, True), driver=driver)
    assert record.faults == 0 and not record.truncated
    assert record.mean_decision_ms > 0
