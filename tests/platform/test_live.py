"""A running match, live: the worker writes the replay so far while it plays (and
clears it at the end), the match page draws it with public information only, and the
polled fragment tells the browser to reload once the match is over."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError
from django.test import Client

from catan_arena.matches import live
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, claim_match, create_match, run_match
from catan_arena.submissions.models import BotVersion
from catan_arena.web import replay_view
from engine import Game, RulesConfig
from engine.replay import Replay, record

pytestmark = pytest.mark.django_db
FAST = MatchLimits(decision_seconds=0.3, time_bank_seconds=1.0)


def partial_replay(steps: int, players: int = 3) -> dict[str, Any]:
    """A game of the engine's own first-legal choices, cut after ``steps`` steps."""
    game = Game.new(RulesConfig(players=players), seed=7)
    while len(game.state.steps) < steps:
        game.apply(game.legal_actions()[0])
    return record(game).to_dict()


@pytest.fixture
def running(three_authors_bots: list[BotVersion]) -> Match:
    match = create_match(three_authors_bots, limits=FAST)
    claim = claim_match(match.pk, worker="test:1:1")
    assert claim is not None
    match.refresh_from_db()
    return match


def test_the_worker_writes_the_game_so_far_and_clears_it_at_the_end(
    three_authors_bots: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    match = create_match(three_authors_bots, limits=FAST)
    seen: list[tuple[int, str, bool]] = []
    write = live.write_live

    def spy(match_id: int, attempt: int, replay: dict[str, Any]) -> bool:
        written = write(match_id, attempt, replay)
        row = Match.objects.get(pk=match_id)
        seen.append((len(replay["steps"]), row.status, row.live == replay))
        return written

    monkeypatch.setattr(live, "LIVE_INTERVAL", 0.0)
    monkeypatch.setattr(live, "write_live", spy)
    assert run_match(match.pk) == "finished"
    steps = [n for n, _, _ in seen]
    assert len(steps) > 50 and steps == sorted(steps)  # after every step, growing
    assert all(status == "running" and stored for _, status, stored in seen)
    match.refresh_from_db()
    assert match.live is None  # cleared with the result


def test_a_failing_live_write_never_voids_the_match(
    three_authors_bots: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    def broken(*args: Any) -> bool:
        calls.append(args)
        raise DatabaseError("database is locked")

    monkeypatch.setattr(live, "LIVE_INTERVAL", 0.0)
    monkeypatch.setattr(live, "write_live", broken)
    match = create_match(three_authors_bots, limits=FAST)
    assert run_match(match.pk) == "finished" and calls


def test_only_the_attempt_holding_the_match_writes(running: Match) -> None:
    data = partial_replay(10)
    assert not live.write_live(running.pk, running.attempts + 1, data)  # a lost attempt
    assert live.write_live(running.pk, running.attempts, data)
    running.refresh_from_db()
    assert running.live == data


def test_the_match_page_draws_a_running_match_with_public_information_only(
    client: Client, running: Match
) -> None:
    data = partial_replay(120)
    live.write_live(running.pk, running.attempts, data)
    html = client.get(f"/matches/{running.pk}/").content.decode()
    assert 'Live · step <span id="live-step">120<' in html and 'class="board"' in html
    assert f'hx-get="/matches/{running.pk}/live/"' in html and "htmx" in html
    assert html.count('class="hand hidden"') == 3 and 'class="hand"' not in html
    assert "seed" not in html and running.seed not in html
    # control: the same position, all-seeing, does show the hands
    everything = replay_view.frame(Replay.from_dict(data), 120)
    assert all(p.hand is not None for p in everything.players)
    last = replay_view.describe(Replay.from_dict(data).steps[-1], ["Red", "Blue", "White"])
    assert last.split(" ", 1)[1] in html  # the latest event in words


def test_the_polled_fragment_follows_the_game_then_asks_for_a_reload(
    client: Client, running: Match
) -> None:
    first = client.get(f"/matches/{running.pk}/live/")
    assert first.status_code == 200 and "taking their seats" in first.content.decode()
    live.write_live(running.pk, running.attempts, partial_replay(30))
    assert 'id="live-step">30<' in client.get(f"/matches/{running.pk}/live/").content.decode()
    live.write_live(running.pk, running.attempts, partial_replay(60))
    polled = client.get(f"/matches/{running.pk}/live/")
    assert 'id="live-step">60<' in polled.content.decode() and "HX-Refresh" not in polled
    Match.objects.filter(pk=running.pk).update(status=Match.Status.FINISHED, live=None)
    over = client.get(f"/matches/{running.pk}/live/")
    assert over["HX-Refresh"] == "true" and "hx-get" not in over.content.decode()
    assert client.get("/matches/999999/live/").status_code == 404


def test_a_broken_live_blob_shows_the_waiting_line(client: Client, running: Match) -> None:
    Match.objects.filter(pk=running.pk).update(live={"format": "something else"})
    html = client.get(f"/matches/{running.pk}/live/").content.decode()
    assert "taking their seats" in html
