"""The ladder page ranks the versions that play (``submissions.selectors.plays``, the one
rule the bot guide states): a bot's superseded version and a withdrawn one are left off
the page and the home page's top, while the API's ladder still lists every rated version
(the control: the ratings are there)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from catan_arena.accounts.models import User
from catan_arena.ladder.services import reinstate_version, withdraw_version
from catan_arena.ratings.models import Rating
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version
from tests.support.bots import VALID_BOT

pytestmark = pytest.mark.django_db


def active(owner: User, name: str, tag: str) -> BotVersion:
    version = upload_version(owner, name, "bot.py", VALID_BOT + f"\n# {tag}\n".encode()).version
    version.status = BotVersion.Status.ACTIVE
    version.save(update_fields=["status"])
    Rating.objects.create(version=version, elo=1500 + len(tag), mu=25, sigma=8, games=30, wins=9)
    return version


def rows(html: str) -> list[tuple[str, str]]:
    """(bot, version) of each row of the page's ladder table."""
    table = html[html.index('<table class="list ladder">') :].split("</table>")[0]
    return re.findall(r'href="/bots/([\w-]+)/">[\w-]+</a> <small>(v\d+)</small>', table)


def test_superseded_and_withdrawn_versions_are_left_off(client: Client, author: User) -> None:
    active(author, "alpha", "one")
    active(author, "alpha", "two-newer")  # v2 supersedes v1
    beta = active(author, "beta", "b")
    gamma = active(author, "gamma", "g")
    withdraw_version(author, beta)
    api = client.get("/api/v1/ladder/").json()
    assert len(api["results"]) == 4  # the control: every version is rated
    for url in ("/ladder/", "/ladder/?sort=games", "/"):
        assert sorted(rows(client.get(url).content.decode())) == [
            ("alpha", "v2"),
            ("gamma", "v1"),
        ], url
    ranks = re.findall(r"<tr>\s*<td>(\d+)</td>", client.get("/ladder/").content.decode())
    assert ranks == ["1", "2"]  # ranked among those that play
    reinstate_version(author, beta)
    withdraw_version(author, gamma)
    assert sorted(rows(client.get("/ladder/").content.decode())) == [
        ("alpha", "v2"),
        ("beta", "v1"),
    ]
