"""The site's pages on real data (a played match, ratings, a tournament): what each
shows, the ladder's sorting, 404s, and queries per page that do not grow with the data."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catan_arena.accounts.models import User
from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match
from catan_arena.ratings.models import Rating
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.services import create_round_robin
from tests.support.records import FAST, active_bots

pytestmark = pytest.mark.django_db


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.content.decode()


def test_home_shows_the_ladder_matches_and_tournaments(client: Client, played: Match) -> None:
    html = page(client, "/")
    assert "Top of the ladder" in html and "autumn cup" in html
    assert f'href="/matches/{played.pk}/"' in html
    assert all(s.version.bot.name in html for s in played.seats.select_related("version__bot"))
    assert 'href="/api/v1/docs/"' in html


def test_the_ladder_sorts(client: Client, played: Match) -> None:
    names = [r.version.bot.name for r in Rating.objects.select_related("version__bot")]
    by_elo = page(client, "/ladder/")
    by_name = page(client, "/ladder/?sort=bot")
    order = [n for n in re.findall(r'href="/bots/([\w-]+)/"', by_name) if n in names]
    assert order == sorted(names)
    assert "?" in by_elo  # one game: every Elo is provisional
    assert page(client, "/ladder/?sort=nonsense").count("<tr>") == by_elo.count("<tr>")


def test_a_match_page_shows_seats_places_and_the_replay_link(client: Client, played: Match) -> None:
    html = page(client, f"/matches/{played.pk}/")
    assert "finished" in html and f"/api/v1/matches/{played.pk}/replay/" in html
    for seat in played.seats.select_related("version__bot"):
        assert seat.version.bot.name in html
    assert "Tournament game" in html
    page(client, "/matches/999999/", 404)


def test_a_queued_match_says_so(client: Client, three_authors_bots: list[BotVersion]) -> None:
    queued = create_match(three_authors_bots, limits=FAST)
    html = page(client, f"/matches/{queued.pk}/")
    assert "Waiting for a worker" in html and "/replay/" not in html


def test_a_bot_page(client: Client, played: Match) -> None:
    seat = played.seats.select_related("version__bot__owner").first()
    assert seat is not None
    html = page(client, f"/bots/{seat.version.bot.name}/")
    assert seat.version.bot.owner.username in html and "v1" in html
    assert "smoke" in html or "active" in html
    assert f'href="/matches/{played.pk}/"' in html
    page(client, "/bots/nobody-here/", 404)


def test_a_tournament_page_shows_progress_standings_and_fixtures(
    client: Client, played: Match
) -> None:
    assert played.tournament_id is not None
    html = page(client, f"/tournaments/{played.tournament_id}/")
    assert "1 / 3 games" in html and "Strength" in html and "Tier" in html
    assert len(re.findall(r"href=\"/matches/\d+/\"", html)) == 3
    assert "autumn cup" in page(client, "/tournaments/")
    page(client, "/tournaments/424242/", 404)


PAGES = ["/", "/ladder/", "/matches/", "/tournaments/"]


@pytest.mark.parametrize("url", PAGES)
def test_page_queries_do_not_grow_with_the_data(client: Client, url: str) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            page(client, url)
        return len(captured)

    def grow(n: int) -> None:
        people = [User.objects.create_user(f"p{n}-{i}", password="x-4521-y") for i in range(3)]
        versions = [active_bots(person, 1)[0] for person in people]
        for version in versions:
            Rating.objects.create(version=version, elo=1500, mu=25, sigma=8, games=3)
        for _ in range(n):
            create_match(versions, limits=FAST)
        create_round_robin(f"cup {n}", versions, limits=FAST)

    grow(1)
    few = queries()
    grow(10)
    assert queries() == few


def test_the_replay_viewer_draws_each_step(client: Client, played: Match) -> None:
    from catan_arena.matches.selectors import replay_of

    steps = len(replay_of(played)["steps"])  # type: ignore[index]
    start = page(client, f"/matches/{played.pk}/replay/")
    assert f"step 0 of {steps}" in start and "The board is set." in start
    assert start.count('class="hex"') == 19 and 'class="robber"' in start
    assert 'class="settlement"' not in start  # nothing built before the first decision
    later = page(client, f"/matches/{played.pk}/replay/?step=2")
    assert 'class="settlement"' in later and "builds a road" in later  # settle, then a road
    events = later.split('id="events">')[1].split("</ol>")[0]  # newest first, each a link
    assert events.index('href="?step=2"') < events.index('href="?step=1"')
    assert "builds a road" in events and "builds a settlement" in events
    assert (
        page(client, f"/matches/{played.pk}/replay/?step=30")
        .split('id="events">')[1]
        .split("</ol>")[0]
        .count("<li>")
        == 8
    )  # the last eight steps, no more
    end = page(client, f"/matches/{played.pk}/replay/?step={steps}")
    assert re.search(r'id="forward"[^>]* hidden>', end) and 'id="back" href=' in end
    assert re.search(r'id="back"[^>]* hidden>', start) and not re.search(
        r'id="back"[^>]* hidden>', end
    )
    assert 'id="dice">No roll yet.' in start and 'id="dice">Dice: <span class="faces">' in end
    assert page(client, f"/matches/{played.pk}/replay/?step=99999").count(
        f"step {steps} of {steps}"
    )  # clamped
    assert "Watch the replay" in page(client, f"/matches/{played.pk}/")


def test_a_seat_view_hides_the_other_hands(client: Client, played: Match) -> None:
    url = f"/matches/{played.pk}/replay/?step=40"
    everything = page(client, url)
    assert everything.count('class="hand hidden"') == 0
    seat_two = page(client, url + "&view=1")
    assert seat_two.count('class="hand hidden"') == 2  # three seats: the other two hidden
    assert 'data-seat="1"' in seat_two


@pytest.mark.parametrize(
    "query",
    [
        "step=abc&view=zzq",
        "step=-5&view=99",
        "step=1e9&view=-1",
        "step=3&view=1%22%3E%3Cscript%3Ezzq%3C/script%3E",
        "step=3&view=0&view=zzq",
    ],
)
def test_hostile_step_and_view_parameters_are_clamped_never_reflected(
    client: Client, played: Match, query: str
) -> None:
    html = page(client, f"/matches/{played.pk}/replay/?{query}")
    assert "zzq" not in html and "<script>zzq" not in html  # nothing of the input comes back
    assert 'class="hand hidden"' not in html  # no seat view: every hand shown, as "everything"
    assert re.search(r"step \d+ of \d+", html)


def test_a_replay_page_needs_a_finished_match(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    queued = create_match(three_authors_bots, limits=FAST)
    page(client, f"/matches/{queued.pk}/replay/", 404)
    page(client, "/matches/999999/replay/", 404)


def test_sign_up_log_out_and_log_in(client: Client) -> None:
    form = page(client, "/sign-up/")
    assert 'name="password1"' in form and "csrfmiddlewaretoken" in form
    made = client.post(
        "/sign-up/",
        {"username": "newcomer", "password1": "a-long-pass-4521", "password2": "a-long-pass-4521"},
    )
    assert made.status_code == 302 and User.objects.filter(username="newcomer").exists()
    assert "newcomer" in page(client, "/") and "Log out" in page(client, "/")
    assert client.post("/log-out/").status_code == 302
    assert "Log in" in page(client, "/")
    again = client.post("/sign-up/", {"username": "NEWCOMER", "password1": "x", "password2": "x"})
    assert "that username is taken" in again.content.decode()
    wrong = client.post("/log-in/", {"username": "newcomer", "password": "nope"})
    nobody = client.post("/log-in/", {"username": "nobody", "password": "nope"})
    for reply in (wrong, nobody):  # one answer: it tells nobody which usernames exist
        assert "Wrong username or password." in reply.content.decode()
    ok = client.post("/log-in/", {"username": "newcomer", "password": "a-long-pass-4521"})
    assert ok.status_code == 302 and "newcomer" in page(client, "/")


def test_continue_from_here_downloads_the_position(client: Client, played: Match) -> None:
    from catan_arena.matches.selectors import replay_of
    from engine.replay import Replay, state_at

    full = replay_of(played)
    assert full is not None
    viewer = page(client, f"/matches/{played.pk}/replay/?step=40")
    assert f'href="/matches/{played.pk}/replay/position/?step=40"' in viewer
    response = client.get(f"/matches/{played.pk}/replay/position/?step=40")
    assert response["Content-Disposition"] == (
        f'attachment; filename="match-{played.pk}-step-40.json"'
    )
    cut = response.json()
    assert len(cut["steps"]) == 40 and cut["result"] is None
    assert cut["meta"] == {"from_step": 40, "match": played.pk}
    assert cut["steps"] == full["steps"][:40] and cut["seed"] == full["seed"]
    here = state_at(Replay.from_dict(cut), 40).state
    there = state_at(Replay.from_dict(full), 40).state
    assert (here.hands, here.node_owner, here.edge_owner) == (
        there.hands,
        there.node_owner,
        there.edge_owner,
    )
    last = client.get(f"/matches/{played.pk}/replay/position/?step=99999").json()
    assert len(last["steps"]) == len(full["steps"])  # clamped
    # a game sharing the seed still to play: no position but to staff, without the seed
    Match.objects.create(seed=played.seed, rules=played.rules, decision_seconds=1, game_seconds=10)
    page(client, f"/matches/{played.pk}/replay/position/?step=5", 404)
    client.force_login(User.objects.create_user("root", password="x-4521-y", is_staff=True))
    assert client.get(f"/matches/{played.pk}/replay/position/?step=5").json()["seed"] is None
    page(client, "/matches/999999/replay/position/", 404)


def test_the_viewer_draws_the_charts_beside_the_board(client: Client, played: Match) -> None:
    html = page(client, f"/matches/{played.pk}/replay/?step=30")
    assert 'class="chart-points"' in html and 'class="chart-luck"' in html
    assert html.count("got ") >= 3 and "expected" in html
    hidden = page(client, f"/matches/{played.pk}/replay/?step=30&view=1")
    assert 'class="chart-points"' in hidden
