"""A running match, live: the worker writes the replay so far while it plays (and
clears it at the end); the match page draws it with public information only, and its
live data (what the page's viewer polls) sends the steps after the ones the page has,
with public information only, and says when the match is over."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from django.db import DatabaseError
from django.test import Client

from catan_arena.matches import live
from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.services import claim_match, create_match, run_match
from catan_arena.submissions.models import BotVersion
from catan_arena.web import replay_view
from catan_arena.web.replay_document import document
from engine import Game, RulesConfig
from engine.replay import Replay, iter_states, record
from tests.support.records import FAST

pytestmark = pytest.mark.django_db


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


def random_replay(steps: int) -> dict[str, Any]:
    """A 4-player game of random legal moves (no trade offers), cut after ``steps``
    steps: from step 274 on a seat holds a victory-point card (hidden points)."""
    game = Game.new(RulesConfig(players=4), seed=7)
    rng = random.Random(1)
    while len(game.state.steps) < steps:
        legal = game.legal_actions()
        rng_pick = [a for a in legal if type(a).__name__ != "ProposeTrade"] or legal
        game.apply(rng.choice(rng_pick))
    return record(game).to_dict()


def test_the_match_page_draws_a_running_match_with_public_information_only(
    client: Client, running: Match
) -> None:
    data = partial_replay(120) | {"seed": running.seed}  # as the worker writes it
    live.write_live(running.pk, running.attempts, data)
    html = client.get(f"/matches/{running.pk}/").content.decode()
    assert '<span id="step-title">step 120 of 120<' in html and 'class="board"' in html
    assert f'data-src="/matches/{running.pk}/live/data/"' in html and "viewer.js" in html
    assert html.count('class="hand hidden"') == 3 and 'class="hand"' not in html
    assert "seed" not in html and running.seed not in html
    # control: the same position, all-seeing, does show the hands
    everything = replay_view.frame(Replay.from_dict(data), 120)
    assert all(p.hand is not None for p in everything.players)
    last = replay_view.describe(Replay.from_dict(data).steps[-1], ["Red", "Blue", "White"])
    assert last.split(" ", 1)[1] in html  # the latest event in words


def live_data(client: Client, pk: int, query: str = "") -> dict[str, Any]:
    response = client.get(f"/matches/{pk}/live/data/{query}")
    assert response.status_code == 200 and response["Cache-Control"].startswith("max-age=0")
    answer: dict[str, Any] = response.json()
    return answer


def test_the_live_data_holds_what_every_seat_sees_and_nothing_more(
    client: Client, running: Match
) -> None:
    """No hand, no hidden victory-point card, no seed in anything the live data sends,
    from the first step to the newest. Control: the same game's all-seeing document
    has every hand and, from step 274, points the public ones do not count."""
    data = random_replay(400) | {"seed": running.seed}  # as the worker writes it
    live.write_live(running.pk, running.attempts, data)
    assert running.seed in str(Match.objects.get(pk=running.pk).live)  # the blob has it
    body = client.get(f"/matches/{running.pk}/live/data/?since=0").content.decode()
    assert running.seed not in body and "seed" not in body
    sent = orjson.loads(body)
    assert sent["steps"] == 400 and len(sent["frames"]) == 401 and sent["since"] == 0
    public = [list(game.state.public_vp) for _, game in iter_states(Replay.from_dict(data))]
    for k, frame in enumerate(sent["frames"]):
        assert frame["h"] == [None] * 4, k
        assert [s[0] for s in frame["s"]] == public[k], k
    later = live_data(client, running.pk, f"?since=350&attempt={running.attempts}")
    assert all(f["h"] == [None] * 4 for f in later["frames"])
    everything = document(Replay.from_dict(data))  # control
    assert all(h is not None for f in everything["frames"] for h in f["h"])
    assert any([s[0] for s in f["s"]] != public[k] for k, f in enumerate(everything["frames"]))


def test_the_live_data_sends_only_the_steps_after_since(client: Client, running: Match) -> None:
    assert client.get("/matches/999999/live/data/").status_code == 404
    first = live_data(client, running.pk, "?since=0")
    assert first == {
        "status": "running",
        "attempt": running.attempts,
        "note": "Starting: the bots are taking their seats…",
    }
    live.write_live(running.pk, running.attempts, partial_replay(30))
    whole = live_data(client, running.pk, "?since=0")
    assert whole["steps"] == 30 and len(whole["frames"]) == 31 and "geometry" in whole
    live.write_live(running.pk, running.attempts, partial_replay(60))
    attempt = f"&attempt={running.attempts}"
    more = live_data(client, running.pk, f"?since=30{attempt}")
    assert more["since"] == 30 and more["steps"] == 60 and len(more["frames"]) == 30
    assert "geometry" not in more and "names" not in more  # sent once
    full = document(Replay.from_dict(partial_replay(60)), public=True)
    assert more["frames"] == full["frames"][31:]  # the same frames as a whole document
    assert all(k > 30 for ks in more["jumps"].values() for k in ks)
    assert more["jumps"]["turn"] == [k for k in full["jumps"]["turn"] if k > 30]
    nothing = live_data(client, running.pk, f"?since=60{attempt}")
    assert nothing["frames"] == [] and nothing["steps"] == 60
    # another attempt (the first was voided) or a count beyond the match: all again
    assert live_data(client, running.pk, "?since=30&attempt=99")["since"] == 0
    assert live_data(client, running.pk, f"?since=90{attempt}")["since"] == 0
    shell = live_data(client, running.pk, "?since=0&shell=1")["shell"]
    assert 'id="replay"' in shell and "step 60 of 60" in shell and "hand hidden" in shell
    assert 'class="hand"' not in shell


def test_a_finished_match_s_live_data_says_so(client: Client, running: Match) -> None:
    live.write_live(running.pk, running.attempts, partial_replay(30))
    Match.objects.filter(pk=running.pk).update(status=Match.Status.FAILED, live=None)
    over = live_data(client, running.pk, "?since=30")
    assert over["done"] is True and over["status"] == "failed" and "frames" not in over
    assert over["replay"] is None and 'class="status failed"' in over["head"]


def test_a_finished_match_s_live_data_points_to_its_replay_and_banner(
    client: Client, three_authors_bots: list[BotVersion]
) -> None:
    match = create_match(three_authors_bots, limits=FAST)
    assert run_match(match.pk) == "finished"
    over = live_data(client, match.pk, "?since=12&attempt=1")
    assert over["done"] is True and over["replay"] == f"/matches/{match.pk}/replay/data/"
    assert 'id="ending"' in over["ending"] and "Settlements" in over["ending"]
    assert "Watch the replay" in over["head"]
    won = MatchSeat.objects.filter(match=match, won=True).exists()  # a game may end unwon
    assert ("winner" in over["head"]) == won


def test_a_broken_live_blob_shows_the_waiting_line(client: Client, running: Match) -> None:
    Match.objects.filter(pk=running.pk).update(live={"format": "something else"})
    assert "taking their seats" in client.get(f"/matches/{running.pk}/").content.decode()
    assert "taking their seats" in live_data(client, running.pk, "?since=0")["note"]
