"""A bot's seat folder (its copy and its tmp) is removed with its process, and faults name
the author's own file, not the path the sandbox shows it at (/bot/...)."""

from __future__ import annotations

from pathlib import Path

from arena_runner import BotRunner, Fault, resolve_policy
from arena_runner.sandbox.tiers import Tier
from engine import Clock, Game, RulesConfig
from tests.support.sandbox import need_tier

BROKEN = (
    "from bots import Player\n\n\nclass B(Player):\n    def act(self, o):\n        return 1 / 0\n"
)


def test_seat_folders_go_with_their_process_and_faults_name_the_users_file(
    tmp_path: Path,
) -> None:
    need_tier(Tier.FULL)
    bot = tmp_path / "my_bot.py"
    bot.write_text(BROKEN)
    game = Game.new(RulesConfig(), 2)
    with BotRunner(resolve_policy(Tier.FULL)) as runner:
        driver = runner.driver(bot)
        assert driver.start(0, game.config, game.layout, 1, game.observe(0)) is None
        process = driver.process
        assert process is not None and process.seat_dir is not None
        seat = process.seat_dir.parent
        assert seat.is_dir()
        fault = driver.act(game.observe(0), Clock(5.0, 0.0))
        assert isinstance(fault, Fault)
        assert str(bot) in fault.detail and "/bot/my_bot.py" not in fault.detail, fault.detail
        driver.close()
        assert not seat.exists()
