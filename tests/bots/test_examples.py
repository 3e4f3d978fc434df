"""The example bots of the bot-author guide load like uploads and play whole games."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.local import play_local_game, seeded_rng
from bots.registry import load_player_class
from engine import BoardSetup, RulesConfig

EXAMPLES = Path(__file__).resolve().parents[2] / "bots" / "examples"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.py"))
CONFIGS = [
    RulesConfig(),
    RulesConfig(players=3, domestic_trade=False),
    RulesConfig(board=BoardSetup.BEGINNER, friendly_robber=True, strict_trade_then_build=True),
]


def test_there_are_examples() -> None:
    assert len(EXAMPLE_FILES) >= 2


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("config", CONFIGS, ids=["default", "3p-notrade", "beginner-strict"])
def test_example_plays_whole_games(path: Path, config: RulesConfig) -> None:
    example = load_player_class(str(path))
    others = [load_player_class("random"), load_player_class("heuristic")]
    for seed in (1, 2):
        # The example sits in a different seat each game, among random and heuristic bots.
        seat = seed % config.players
        classes = [example if s == seat else others[s % 2] for s in range(config.players)]
        players = [cls(seeded_rng(seed, s)) for s, cls in enumerate(classes)]
        result = play_local_game(config, seed, players)  # raises on an illegal action
        assert result.outcome is not None
        assert result.timings[seat].decisions > 0


def test_the_guide_shows_the_clock_budget_example_as_it_is() -> None:
    """Every code line of the guide's clock section is a line of the example file."""
    guide = (EXAMPLES.parents[1] / "docs" / "bot-guide.md").read_text()
    section = guide[guide.index("## Time limits and errors") :]
    snippet = section[section.index("```python") + len("```python") : section.index("```\n\n")]
    lines = (EXAMPLES / "clock_budget.py").read_text().splitlines()
    source = {line.split("  #")[0].strip() for line in lines}
    code = [line.split("  #")[0].strip() for line in snippet.splitlines()]
    missing = [line for line in code if line and line not in source]
    assert len(code) > 20 and not missing, missing
