"""A house bot's stored source names every ``bots.builtin`` module it imports with its
sha256, so a change to one of its helpers makes a new ladder version (and a change to a
module it does not import does not)."""

from __future__ import annotations

from pathlib import Path

from bots.builtin_source import FOOTER, house_bot_sha256, house_bot_source, imported_modules
from bots.registry import BUILTINS, load_player_class


def bot_folder(tmp_path: Path) -> Path:
    """``bot.py`` importing ``helper_a``, which imports ``helper_b``; ``unrelated`` beside."""
    (tmp_path / "bot.py").write_text(
        "from bots.builtin.helper_a import VALUE\n"
        "from bots.player import Player\n\n\n"
        "class Bot(Player):\n"
        "    def act(self, observation):\n"
        "        return observation.legal_actions[VALUE]\n"
    )
    (tmp_path / "helper_a.py").write_text("from bots.builtin import helper_b\n\nVALUE = 0\n")
    (tmp_path / "helper_b.py").write_text("WEIGHT = 1.0\n")
    (tmp_path / "unrelated.py").write_text("X = 1\n")
    return tmp_path / "bot.py"


def test_a_helper_imported_through_another_changes_the_key(tmp_path: Path) -> None:
    bot = bot_folder(tmp_path)
    assert [m.name for m in imported_modules(bot)] == ["helper_a.py", "helper_b.py"]
    before = house_bot_sha256(bot)
    (tmp_path / "helper_b.py").write_text("WEIGHT = 2.0\n")
    assert house_bot_sha256(bot) != before


def test_control_a_module_it_does_not_import_leaves_the_key(tmp_path: Path) -> None:
    bot = bot_folder(tmp_path)
    before = house_bot_sha256(bot)
    (tmp_path / "unrelated.py").write_text("X = 2\n")
    assert house_bot_sha256(bot) == before
    (tmp_path / "bot.py").write_text(bot.read_text() + "# a comment\n")
    assert house_bot_sha256(bot) != before


def test_the_stored_source_is_the_file_then_a_comment_footer(tmp_path: Path) -> None:
    """The bot's own lines come first, unchanged (its tracebacks' line numbers stay its
    file's), and the stored file still loads as the same bot."""
    search = BUILTINS["search"]
    stored = house_bot_source(search)
    assert stored.startswith(search.read_bytes())
    footer = stored[len(search.read_bytes()) :].decode()
    assert FOOTER in footer and "search_finish.py" in footer
    assert all(line.startswith("#") for line in footer.splitlines() if line)
    copy = tmp_path / "search.py"
    copy.write_bytes(stored)
    assert load_player_class(str(copy)).__name__ == "SearchPlayer"


def test_a_bot_importing_no_helper_is_stored_as_its_file() -> None:
    assert house_bot_source(BUILTINS["random"]) == BUILTINS["random"].read_bytes()
