"""The trained-policy example (``bots/examples/trained_policy/``): its weights fit its
features, it plays whole legal games, its scorer makes the decisions, and the training
script gives the same weights from the same seed. Its strength is measured by
``benchmarks/strength.py`` (docs/bot-guide.md); its upload and ladder play are in
``tests/platform/test_trained_policy_upload.py``, its sandboxed runs in
``tests/sandbox/test_trained_policy.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from arena_runner import InProcessDriver, play_match
from bots.registry import load_player_class
from engine import RulesConfig
from engine.rng import new_seed

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bots" / "examples" / "trained_policy"


def test_the_bot_loads_its_weights_fitted_to_its_features() -> None:
    module = load_player_class(str(PACKAGE)).act.__globals__  # the bot module's names
    shipped = json.loads((PACKAGE / "weights.json").read_text())
    assert shipped["features"] == list(module["NAMES"])  # bot.py refuses other weights
    assert list(module["WEIGHTS"]) == shipped["weights"] and max(abs(module["WEIGHTS"])) > 0.5


def test_the_trained_policy_plays_legal_games_against_the_heuristic() -> None:
    policy, heuristic = load_player_class(str(PACKAGE)), load_player_class("heuristic")
    for seat in range(2):
        drivers = [InProcessDriver(policy if s == seat else heuristic) for s in range(4)]
        result = play_match(RulesConfig(), new_seed(), drivers, decision_timeout=1.0)
        assert not result.faults[seat], result.faults[seat]
        assert result.stats[seat].decisions > 20


def test_the_scorer_decides() -> None:
    """With its weights negated the same bot, on the same game, scores fewer points: the
    learned weights make its decisions, not rules."""
    policy, heuristic = load_player_class(str(PACKAGE)), load_player_class("heuristic")
    module = policy.act.__globals__  # the bot module's names
    trained = module["WEIGHTS"]
    points = []
    try:
        for weights in (trained, -trained):
            module["WEIGHTS"] = weights
            drivers = [InProcessDriver(policy)] + [InProcessDriver(heuristic) for _ in range(3)]
            result = play_match(RulesConfig(), 12345, drivers, decision_timeout=1.0)
            points.append(result.outcome.points[0])
    finally:
        module["WEIGHTS"] = trained
    assert points[1] < points[0], points


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        command = [sys.executable, "benchmarks/train_policy.py", "--games", "2"]
        command += ["--steps", "30", "--seed", "7", "--jobs", "1", "--out", str(out)]
        subprocess.run(command, cwd=ROOT, check=True, capture_output=True, timeout=300)
    first, second = (json.loads(out.read_text()) for out in outs)
    assert first == second and first["trained"]["seed"] == 7
