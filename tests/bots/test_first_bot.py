"""The bot guide's five-minute bot: the guide shows the example file as it is, and it beats
three ``random`` bots clearly on fresh games (its upload and ladder play are in
``tests/platform/test_first_bot_upload.py``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from arena_runner import InProcessDriver, play_match
from benchmarks.strength import wilson
from bots.registry import load_player_class
from engine import RulesConfig
from engine.rng import new_seed

ROOT = Path(__file__).resolve().parents[2]
FIRST_BOT = ROOT / "bots" / "examples" / "first_bot.py"
GAMES = 24
"""Fresh games per run: the bot wins nearly all of them (40/40 in two benchmark runs), so
even 12 wins would leave the interval's low end above 25%."""


def guide_bot() -> str:
    """The ``my_bot.py`` block of "Five minutes to a first bot", dedented."""
    guide = (ROOT / "docs" / "bot-guide.md").read_text(encoding="utf-8")
    section = guide[guide.index("2. Create `my_bot.py`") :]
    start = section.index("```python\n") + len("```python\n")
    return textwrap.dedent(section[start : section.index("   ```\n", start)])


def test_the_guide_shows_the_first_bot_file_as_it_is() -> None:
    assert guide_bot() == FIRST_BOT.read_text(encoding="utf-8")


def test_the_first_bot_beats_three_random_bots_on_fresh_games() -> None:
    mine, random = load_player_class(str(FIRST_BOT)), load_player_class("random")
    wins = 0
    for game in range(GAMES):
        seat = game % 4
        drivers = [InProcessDriver(mine if s == seat else random) for s in range(4)]
        result = play_match(RulesConfig(), new_seed(), drivers, decision_timeout=1.0)
        assert not result.faults[seat], result.faults[seat]
        wins += result.winner == seat
    low, _ = wilson(wins, GAMES)
    assert low > 0.25, f"{wins}/{GAMES} wins: 95% interval from {low:.1%}"
