"""The match page's small truths (issue 21, item 5): one label per kind of match, the
time figures the API has (mean and longest decision, the bank left), the log link for
the bot's author only; a tournament's tables as played; home's lists that say what
they show."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from catan_arena.abtests.services import request_ab_test
from catan_arena.accounts.models import User
from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.services import create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version
from catan_arena.tournaments.services import create_round_robin
from catan_arena.web.match_page import KIND_LABELS, duration
from tests.support.bots import VALID_BOT
from tests.support.records import FAST, active_bots

pytestmark = pytest.mark.django_db


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def kind_line(html: str) -> str:
    """The line under the heading: what kind of match, its table and rules."""
    found = re.search(r"</h1>\s*<p>(.*?)</p>", html, re.S)
    assert found is not None
    return re.sub(r"<[^>]+>", "", found.group(1))


def labels_in(text: str) -> list[str]:
    return [label for label in KIND_LABELS.values() if label in text]


def test_each_kind_of_match_has_one_label(
    client: Client, played: Match, three_authors_bots: list[BotVersion]
) -> None:
    line = kind_line(page(client, f"/matches/{played.pk}/"))
    assert played.ladder and played.tournament_id  # both flags: still one label
    assert labels_in(line) == ["Tournament game"], line
    assert "Tournament game of autumn cup (rated on the ladder too) · 3 players" in line
    ladder = create_match(three_authors_bots, limits=FAST, ladder=True)
    assert labels_in(kind_line(page(client, f"/matches/{ladder.pk}/"))) == ["Ladder game"]
    friendly = create_match(three_authors_bots, limits=FAST)
    assert labels_in(kind_line(page(client, f"/matches/{friendly.pk}/"))) == ["Exhibition game"]
    author = three_authors_bots[0].bot.owner
    active_bots(User.objects.create_user("ida", password="x-4521-y"), 1)  # a 4th opponent
    second = upload_version(author, "second", "bot.py", VALID_BOT + b"# 2\n").version
    BotVersion.objects.filter(pk=second.pk).update(status="active")
    second.refresh_from_db()
    test = request_ab_test(author, three_authors_bots[0], second, max_pairs=2)
    ab_game = Match.objects.filter(ab_test=test).first()
    assert ab_game is not None
    url = f"/matches/{ab_game.pk}/"
    assert labels_in(kind_line(page(client, url))) == ["Exhibition game"]  # a private test
    client.force_login(User.objects.create_user("eve", password="x-4521-y"))
    assert labels_in(kind_line(page(client, url))) == ["Exhibition game"]
    client.force_login(author)  # control: its requester sees what the game is for
    assert labels_in(kind_line(page(client, url))) == ["A/B test game"]


def test_the_match_page_shows_each_seat_s_time_figures(client: Client, played: Match) -> None:
    html = page(client, f"/matches/{played.pk}/")
    assert "Mean decision" in html and "Time bank left" in html
    for seat in MatchSeat.objects.filter(match=played):
        assert seat.decisions > 0 and seat.bank_left_seconds is not None
        assert seat.mean_decision_ms is not None and seat.max_decision_ms is not None
        row = re.search(rf'<tr class="seat-\w+">\s*<td>.*?{seat.seat + 1} \(.*?</tr>', html, re.S)
        assert row is not None
        cells = re.sub(r"<[^>]+>", "", row.group(0))
        assert f"{seat.decisions}" in cells
        assert duration(seat.mean_decision_ms) in cells
        assert duration(seat.max_decision_ms) in cells
        assert f"{seat.bank_left_seconds:.1f} s of 1 s" in cells
    # the API serves the same figures
    seats = client.get(f"/api/v1/matches/{played.pk}/").json()["seats"]
    assert all(s["bank_left_seconds"] is not None for s in seats)


def test_a_queued_match_shows_no_time_figures_yet(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    queued = create_match(three_authors_bots, limits=FAST)
    html = page(client, f"/matches/{queued.pk}/")
    assert "Waiting for a worker" in html and " ms<" not in html and "s of 1 s" not in html


def test_the_log_link_is_for_the_bot_s_author_only(client: Client, played: Match) -> None:
    seat = MatchSeat.objects.select_related("version__bot__owner").get(match=played, seat=0)
    link = f'href="/matches/{played.pk}/log/0/"'
    assert link not in page(client, f"/matches/{played.pk}/")  # anonymous
    other = MatchSeat.objects.select_related("version__bot__owner").get(match=played, seat=1)
    client.force_login(other.version.bot.owner)
    html = page(client, f"/matches/{played.pk}/")
    assert link not in html  # another author: only their own seat's log
    assert f'href="/matches/{played.pk}/log/1/"' in html
    client.force_login(seat.version.bot.owner)  # control: the author sees the link
    html = page(client, f"/matches/{played.pk}/")
    assert link in html and f'href="/matches/{played.pk}/log/1/"' not in html
    assert page(client, f"/matches/{played.pk}/log/0/")  # and it opens


def test_a_tournament_says_its_tables_as_played(
    client: Client, played: Match, three_authors_bots: list[BotVersion]
) -> None:
    assert played.tournament is not None and played.tournament.table_size == 4
    html = page(client, f"/tournaments/{played.tournament_id}/")
    assert '<span id="tables">tables of 3</span>' in html  # three entries: every table of 3
    people = [User.objects.create_user(f"p{i}", password="x-4521-y") for i in range(4)]
    four = create_round_robin("four cup", [active_bots(p, 1)[0] for p in people], limits=FAST)
    html = page(client, f"/tournaments/{four.pk}/")
    assert '<span id="tables">tables of 4</span>' in html  # control: four entries


def test_home_lists_say_what_they_show(client: Client, played: Match) -> None:
    html = page(client, "/")
    playing = html[html.index('id="playing-now"') : html.index('id="recent-results"')]
    results = html[html.index('id="recent-results"') :]
    assert "Playing now" in playing and "No match is being played right now." in playing
    assert "No matches yet" not in html
    assert "Latest results" in results and "The 10 matches that finished last" in results
    assert f'href="/matches/{played.pk}/"' in results and f"/matches/{played.pk}/" not in playing
    Match.objects.filter(pk=played.pk).update(status=Match.Status.RUNNING)  # control
    html = page(client, "/")
    playing = html[html.index('id="playing-now"') : html.index('id="recent-results"')]
    assert f'href="/matches/{played.pk}/"' in playing and "No match is being" not in playing
