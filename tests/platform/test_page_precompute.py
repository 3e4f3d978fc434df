"""The pages' statistics counted as results are recorded (``matches/tallies.py``): after
a mixed series of matches (finished, a forfeit, failed, void, ladder, tournament) they
equal a full recount from the history and a count made here from the seats; the bot
page and the ladder's seat balance read them; a tournament's cached table is never
stale after a new result; a replay page drawn from one pass equals the cached one."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from catan_arena.accounts.models import User
from catan_arena.ladder.selectors import candidates
from catan_arena.matches import services
from catan_arena.matches.models import Match, MatchSeat, Meeting, SeatTally
from catan_arena.matches.selectors import watchable_replay
from catan_arena.matches.services import create_match, run_match
from catan_arena.matches.tallies import recompute_tallies
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import upload_version
from catan_arena.tournaments.selectors import standings_table
from catan_arena.tournaments.services import cancel_tournament, create_round_robin
from catan_arena.web.replay_pages import warm as warm_replay_cache
from engine.replay import Replay
from tests.support.records import FAST, active_bots

pytestmark = pytest.mark.django_db

GIVES_UP = b'''
from bots import Player


class GivesUp(Player):
    """Plays a little, then raises on every decision until it is forfeited."""

    def act(self, observation):
        if len(observation.history) > 12:
            raise RuntimeError("tired")
        return observation.legal_actions[0]
'''


def tallies() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    seats = SeatTally.objects.values_list(
        "version_id", "seat", "ladder", "games", "wins", "placed", "placings", "points",
        "forfeits",
    )  # fmt: skip
    meetings = Meeting.objects.values_list("version_id", "opponent_id", "games", "ahead", "behind")
    return sorted(seats), sorted(meetings)


def counted_here() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The same figures counted in Python from the finished matches' seats."""
    seat_rows: dict[tuple[int, int, bool], Counter[str]] = {}
    meeting_rows: dict[tuple[int, int], Counter[str]] = {}
    finished = Match.objects.filter(status=Match.Status.FINISHED).prefetch_related("seats")
    for match in finished:
        seats = list(match.seats.all())
        for s in seats:
            row = seat_rows.setdefault((s.version_id, s.seat, match.ladder), Counter())
            row["games"] += 1
            row["wins"] += s.won
            row["placed"] += s.placing is not None
            row["placings"] += s.placing or 0
            row["points"] += s.points or 0
            row["forfeits"] += s.forfeit is not None
            for o in seats:
                if o.seat == s.seat:
                    continue
                pair = meeting_rows.setdefault((s.version_id, o.version_id), Counter())
                pair["games"] += 1
                if s.placing is not None and o.placing is not None:
                    pair["ahead"] += s.placing < o.placing
                    pair["behind"] += s.placing > o.placing
    fields = ("games", "wins", "placed", "placings", "points", "forfeits")
    return (
        sorted((*k, *(r[f] for f in fields)) for k, r in seat_rows.items()),
        sorted((*k, r["games"], r["ahead"], r["behind"]) for k, r in meeting_rows.items()),
    )


def test_recorded_tallies_equal_a_recount_after_a_mixed_series(
    author: User, other_author: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    third = User.objects.create_user("tally-third", password="x-4521-tally")
    versions = [active_bots(person, 1)[0] for person in (author, other_author, third)]
    quitter = upload_version(third, "gives-up", "bot.py", GIVES_UP).version
    BotVersion.objects.filter(pk=quitter.pk).update(status=BotVersion.Status.ACTIVE)

    assert run_match(create_match(versions, limits=FAST).pk) == "finished"
    assert run_match(create_match(versions[::-1], limits=FAST, ladder=True).pk) == "finished"
    forfeited = create_match([versions[0], versions[1], quitter], limits=FAST, ladder=True)
    assert run_match(forfeited.pk) == "finished"
    assert MatchSeat.objects.get(match=forfeited, version=quitter).forfeit is not None

    def sandbox_down(claim: object, **_: object) -> None:
        raise OSError("bubblewrap: cannot create namespace")

    failing = create_match(versions, limits=FAST)
    monkeypatch.setattr(services, "play_claim_bots_exiting", sandbox_down)
    assert [run_match(failing.pk) for _ in range(3)] == ["queued", "queued", "failed"]
    monkeypatch.undo()
    cup = create_round_robin("tally cup", versions, limits=FAST, ladder=True)
    played = cup.matches.order_by("id").first()
    assert played is not None and run_match(played.pk) == "finished"
    assert cancel_tournament(cup) == 2  # the other two void
    assert Counter(Match.objects.values_list("status", flat=True)) == {
        "finished": 4, "failed": 1, "void": 2,
    }  # fmt: skip

    recorded = tallies()
    assert recorded == counted_here()
    assert sum(row[3] for row in recorded[0]) == 4 * 3  # finished games only, 3 seats each
    assert {row[2] for row in recorded[0]} == {True, False}  # ladder and not
    assert sum(row[8] for row in recorded[0]) == 1  # the forfeit
    assert sum(row[2] for row in recorded[1]) == 4 * 3 * 2  # ordered pairs of seats
    assert recompute_tallies() == 4
    assert tallies() == recorded

    ladder_seats = Counter(
        MatchSeat.objects.filter(match__ladder=True, match__status="finished").values_list(
            "version_id", "seat"
        )
    )
    for candidate in candidates():
        assert candidate.seats == tuple(ladder_seats[(candidate.version, s)] for s in range(4))


def test_the_bot_page_reads_the_tallies(client: Client, author: User, other_author: User) -> None:
    third = User.objects.create_user("tally-page", password="x-4521-tally")
    versions = [active_bots(person, 1)[0] for person in (author, other_author, third)]
    for _ in range(2):
        assert run_match(create_match(versions, limits=FAST).pk) == "finished"
    me = versions[0]  # seat 1 in both
    mine = list(MatchSeat.objects.filter(version=me))
    wins, mean = sum(s.won for s in mine), sum(s.placing or 0 for s in mine) / 2
    html = client.get(f"/bots/{me.bot.name}/").content.decode()
    seats = html[html.index("<h2>Seats") : html.index("Head to head")]
    assert f"<td>1</td><td>2</td><td>{wins}</td><td>{mean:.2f}</td>" in seats
    # History written behind the services' back is counted by the recount command.
    MatchSeat.objects.filter(version=me).update(placing=1, won=True)
    MatchSeat.objects.exclude(version=me).update(placing=3, won=False)
    call_command("recompute_page_stats", verbosity=0)
    again = client.get(f"/bots/{me.bot.name}/").content.decode()
    rows = again[again.index("<h2>Seats") : again.index("Head to head")]
    assert "<td>1</td><td>2</td><td>2</td><td>1.00</td>" in rows
    section = again[again.index("Head to head") : again.index("Recent matches")]
    assert section.count('class="num">2</td><td class="num">2 (100%)</td>') == 2


def test_a_tournaments_table_is_never_stale(three_authors_bots: list[BotVersion]) -> None:
    cup = create_round_robin("stale cup", three_authors_bots, limits=FAST)
    first, second, _ = cup.matches.order_by("id")
    assert sum(row.games for row, _ in standings_table(cup)) == 0
    assert run_match(first.pk) == "finished"
    assert sum(row.games for row, _ in standings_table(cup)) == 3
    assert sum(row.games for row, _ in standings_table(cup)) == 3  # from the cache
    assert run_match(second.pk) == "finished"
    table = standings_table(cup)
    assert sum(row.games for row, _ in table) == 6
    assert {fit.entry for _, fit in table} == {v.pk for v in three_authors_bots}


def test_a_replay_pages_first_paint_is_the_same_from_one_pass_or_the_cache(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    match = create_match(three_authors_bots, limits=FAST)
    assert run_match(match.pk) == "finished"
    steps = len(Replay.from_dict(watchable_replay(match.pk, None).data).steps)
    for step in (0, steps // 2, steps):
        url = f"/matches/{match.pk}/replay/?step={step}"
        cache.clear()
        cold = client.get(url).content.decode()  # one pass: charts, ending, the state
        warm = client.get(url).content.decode()  # the cache, and the state re-simulated
        assert cold == warm and f"step {step} of {steps}" in cold
    assert " wins" in cold or "No winner" in cold  # the last step: the ending
    cache.clear()
    warm_replay_cache(match.pk)  # what its receiver does on commit
    assert client.get(url).content.decode() == cold


def test_the_bot_and_tournament_pages_queries_do_not_grow_with_the_history(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    cup = create_round_robin("counted cup", three_authors_bots, limits=FAST)
    urls = [f"/bots/{three_authors_bots[0].bot.name}/", f"/tournaments/{cup.pk}/"]

    def queries(url: str) -> int:
        client.get(url)  # the first view may fill a cache
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    def finish(matches: list[Match]) -> None:  # written behind the services' back
        Match.objects.filter(pk__in=[m.pk for m in matches]).update(status="finished")
        for m in matches:
            for seat in m.seats.all():
                seat.placing, seat.points, seat.won = seat.seat + 1, 10 - seat.seat, not seat.seat
                seat.save(update_fields=["placing", "points", "won"])
        recompute_tallies()

    finish([create_match(three_authors_bots, limits=FAST), cup.matches.first()])
    few = [queries(url) for url in urls]
    finish([create_match(three_authors_bots, limits=FAST) for _ in range(30)])
    finish(list(cup.matches.exclude(status="finished")))
    assert [queries(url) for url in urls] == few
