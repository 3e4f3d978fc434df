"""The house bots' names are the platform's: an author cannot take one before the house
bots are registered (then own the ladder's landmark), and an old database where one was
taken keeps its author's bot untouched."""

from __future__ import annotations

import pytest

from catan_arena.accounts.models import User
from catan_arena.accounts.services import system_user
from catan_arena.submissions.errors import BotNameTaken
from catan_arena.submissions.models import Bot, BotContent, BotVersion
from catan_arena.submissions.services import register_builtins, upload_version
from tests.support.bots import VALID_BOT

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_an_author_cannot_take_a_house_bots_name(author: User, name: str) -> None:
    with pytest.raises(BotNameTaken, match="reserved"):
        upload_version(author, name, "bot.py", VALID_BOT)
    assert not Bot.objects.filter(name=name).exists()


def test_control_an_ordinary_name_and_the_system_account(author: User) -> None:
    assert upload_version(author, "searcher", "bot.py", VALID_BOT).created
    assert upload_version(system_user(), "search", "bot.py", VALID_BOT).created


def test_a_name_taken_in_older_data_is_left_to_its_author(author: User) -> None:
    squatted = Bot.objects.create(name="random", owner=author)
    content = BotContent.objects.create(sha256="0" * 64, data=VALID_BOT, size=len(VALID_BOT))
    BotVersion.objects.create(bot=squatted, number=1, content=content, kind="py")
    registered = register_builtins()
    assert sorted(v.bot.name for v in registered) == ["heuristic", "search"]
    assert list(squatted.versions.values_list("number", flat=True)) == [1]
    assert Bot.objects.get(name="random").owner == author
