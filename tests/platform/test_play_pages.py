"""The pages of a person's game (issue 23) through Django's test client: start it from a
bot's page, the play page is the person's alone, its state offers exactly the legal
actions the worker posted (board spots for pieces) and the person's own hand only, and a
forged decision posted to it is refused with a message, changing nothing."""

from __future__ import annotations

import random
import re
from typing import Any

import orjson
import pytest
from django.test import Client

from catan_arena.accounts.models import User
from catan_arena.matches.models import Match, PersonSeat
from catan_arena.matches.person import start_person_game
from catan_arena.matches.person_mailbox import DatabaseMailbox
from catan_arena.matches.selectors import PeopleRecord, people_record
from catan_arena.matches.services import MatchLimits, claim_match, create_match
from catan_arena.ratings.models import Rating
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins
from catan_arena.web import play_view
from catan_arena.web.play_view import PLAYS
from engine import Game, RulesConfig
from engine.actions import (
    ACCEPT,
    CANCEL,
    END_TURN,
    REJECT,
    CounterTrade,
    ProposeTrade,
    action_from_dict,
    action_to_json,
)
from engine.replay import state_at
from engine.types import DevCard, Resource

pytestmark = pytest.mark.django_db
PLAYED_SEED = 23
"""The games played at random to reach a position: a fixed seed, so the position comes
the same way every run."""


@pytest.fixture
def player() -> Client:
    User.objects.create_user("player", password="pass-4521-word")
    client = Client()
    client.force_login(User.objects.get(username="player"))
    return client


def start(client: Client, seat: str = "0") -> Match:
    register_builtins()
    answer = client.post(
        "/bots/heuristic/play/", {"players": "4", "fillers": "random", "seat": seat}
    )
    match = Match.objects.get(person__username="player")
    assert answer.status_code == 302 and answer["Location"] == f"/play/{match.pk}/"
    return match


def posted(match: Match) -> Game:
    """Claim the match and post seat 0's first decision as the worker does."""
    claim = claim_match(match.pk, worker="test:1:1")
    assert claim is not None
    game = Game.new(RulesConfig(players=4), claim.seed)
    DatabaseMailbox(match.pk, claim.attempt, game, claim.names).post(0, game.observe(0), 4e9)
    return game


def state(client: Client, match: Match) -> dict[str, Any]:
    answer = client.get(f"/play/{match.pk}/state/")
    assert answer.status_code == 200
    data: dict[str, Any] = orjson.loads(answer.content)
    return data


def test_a_bot_page_offers_the_game_to_signed_in_people(player: Client) -> None:
    register_builtins()
    assert b"Play against this bot" in player.get("/bots/heuristic/").content
    anonymous = Client().get("/bots/heuristic/").content
    assert b"Play against this bot" not in anonymous and b"to play against this bot" in anonymous
    assert Client().post("/bots/heuristic/play/", {"players": "4"}).status_code == 302
    assert not Match.objects.exists()  # the anonymous post started nothing
    match = start(player)
    assert match.kind == "person"
    assert player.get(f"/play/{match.pk}/").status_code == 200
    assert b"Waiting for a worker" in player.get(f"/play/{match.pk}/").content


def test_the_play_page_is_the_persons_alone(player: Client) -> None:
    match = start(player)
    User.objects.create_user("other", password="pass-4521-word")
    other = Client()
    other.force_login(User.objects.get(username="other"))
    assert player.get(f"/play/{match.pk}/state/").status_code == 200  # the control
    assert other.get(f"/play/{match.pk}/").status_code == 403
    assert other.get(f"/play/{match.pk}/state/").status_code == 403
    assert Client().get(f"/play/{match.pk}/state/").status_code == 302  # to log in


def test_the_state_offers_exactly_the_posted_legal_actions_and_own_hand_only(
    player: Client,
) -> None:
    match = start(player)
    game = posted(match)
    data = state(player, match)
    legal = [action_to_json(a) for a in game.legal_actions()]
    assert [c["action"] for c in data["choices"]] == legal and data["step"] == 0
    assert all(c["spot"]["kind"] == "node" for c in data["choices"])  # set-up settlements
    assert data["seconds_left"] > 1e6  # the deadline posted (4e9 s after 1970)
    assert data["board"].startswith("<svg") and data["key"] == "0:0"
    assert data["side"].count('class="hand hidden"') == 3  # the three bots' hands
    again = player.get(f"/play/{match.pk}/state/?have=0:0")
    assert "board" not in orjson.loads(again.content)  # nothing new to draw


def test_a_forged_decision_posted_to_the_page_is_refused(player: Client) -> None:
    match = start(player)
    game = posted(match)
    url = f"/play/{match.pk}/decide/"
    legal = action_to_json(game.legal_actions()[0])
    forged = [
        {"step": 0, "action": {"type": "build_city", "node": 0}},  # illegal
        {"step": 3, "action": legal},  # stale
        {"step": 0, "action": {"type": "end_turn", "seat": 2}},  # not an action
        {"step": 0},
    ]
    for body in forged:
        answer = player.post(url, orjson.dumps(body), content_type="application/json")
        assert answer.status_code == 400 and orjson.loads(answer.content)["error"]["message"]
        assert PersonSeat.objects.get(match=match).answer is None
    bad = player.post(url, b"not json", content_type="application/json")
    assert bad.status_code == 400
    ok = player.post(url, orjson.dumps({"step": 0, "action": legal}), "application/json")
    assert ok.status_code == 200  # the control
    assert PersonSeat.objects.get(match=match).answer == {"step": 0, "action": legal}


def played_until(game: Game, reached: Any, limit: int = 20_000) -> None:
    """Play ``game`` on (every seat buys a development card when it may, else a random
    legal action from a fixed stream) until ``reached(game)``."""
    rng = random.Random(23)
    for _ in range(limit):
        if reached(game):
            return
        legal = game.legal_actions()
        buy = [a for a in legal if a.kind == "buy_dev_card"]
        game.apply(buy[0] if buy else rng.choice(legal))
    raise AssertionError("the position was not reached")


def cards_to_play(game: Game) -> bool:
    """Seat 1 decides and may play a development card; another seat holds one too."""
    state = game.state
    return (
        game.outcome is None
        and state.decider == 0
        and any(a.kind.startswith("play_") for a in game.legal_actions())
        and any(sum(state.devs[s]) for s in range(1, 4))
    )


def test_the_person_sees_their_own_development_cards_by_kind_and_may_play_them(
    player: Client,
) -> None:
    match = start(player)
    claim = claim_match(match.pk, worker="test:1:1")
    assert claim is not None
    game = Game.new(RulesConfig(players=4), PLAYED_SEED)  # the posted replay carries it
    played_until(game, cards_to_play)
    step = len(game.observe(0).history)
    DatabaseMailbox(match.pk, claim.attempt, game, claim.names).post(step, game.observe(0), 4e9)
    data = state(player, match)
    side = data["side"]
    mine = game.state.devs[0]
    held = {card.label.replace("_", " "): mine[card] for card in DevCard if mine[card]}
    shown = re.findall(r'<li data-kind="([a-z ]+)"[^>]*>([a-z ]+) (\d+)', side)
    assert {kind: int(n) for kind, _, n in shown} == held  # by kind, with counts
    playable = {c["action"]["type"] for c in data["choices"]} & set(PLAYS.values())
    assert playable  # the position: a card to play, offered as the decision's choice
    marked = set(re.findall(r'<li data-kind="([a-z ]+)" class="playable"', side))
    assert {PLAYS[DevCard[k.upper().replace(" ", "_")]] for k in marked} == playable
    for other in range(1, 4):  # the others' cards: a count, never their kinds
        section = side.split(f'data-seat="{other}"')[1].split("</section>")[0]
        count = sum(game.state.devs[other])
        assert f"{count} development card" in section and "data-kind" not in section
    assert side.count('class="devs"') == 1  # one list: the person's own


def one(resource: int) -> tuple[int, ...]:
    return tuple(int(r == resource) for r in range(5))


def offer_to_make(game: Game) -> tuple[int, int, int] | None:
    """(give, get, counter): seat 1 offers a card for one seat 2 holds, and seat 4 holds
    a third kind to counter with; None when the position has no such offer."""
    state = game.state
    if game.outcome is not None or state.decider != 0 or state.phase.name != "MAIN":
        return None
    if not any(a.kind == "propose_trade" for a in game.legal_actions()):
        return None
    for give in range(5):
        for get in range(5):
            for counter in range(5):
                if (
                    state.hands[0][give]
                    and get != give
                    and state.hands[1][get]
                    and counter != give
                    and state.hands[3][counter]
                ):
                    return give, get, counter
    return None


def test_the_persons_offer_to_the_bots_shows_each_answer(player: Client) -> None:
    match = start(player)
    claim = claim_match(match.pk, worker="test:1:1")
    assert claim is not None
    game = Game.new(RulesConfig(players=4), PLAYED_SEED)
    mailbox = DatabaseMailbox(match.pk, claim.attempt, game, claim.names)
    played_until(game, lambda g: offer_to_make(g) is not None)
    mailbox.post(len(game.observe(0).history), game.observe(0), 4e9)
    before = state(player, match)
    offers = [c for c in before["choices"] if c["action"]["type"] == "propose_trade"]
    assert offers and "play-offer" not in before["side"]  # the control: no offer made yet
    give, get, counter = offer_to_make(game) or (0, 0, 0)
    offer = ProposeTrade(one(give), one(get))
    assert action_to_json(offer) in [c["action"] for c in offers]  # offered on the page
    for action in (offer, ACCEPT, REJECT, CounterTrade(one(counter), one(give))):
        game.apply(action)
    mailbox.post(len(game.observe(0).history), game.observe(0), 4e9)
    data = state(player, match)
    names = [r.label for r in Resource]
    side = data["side"]
    assert f"Your offer: 1 {names[give]} for 1 {names[get]}" in side
    answers = dict(re.findall(r'<li data-seat="(\d)" data-answer="(\w+)">', side))
    assert answers == {"1": "accept_trade", "2": "reject_trade", "3": "counter_trade"}
    assert f"counters: gives 1 {names[counter]} for 1 {names[give]}" in side
    words = {c["action"].get("seat"): c["words"] for c in data["choices"]}
    assert words[1].endswith(f": give 1 {names[give]}, get 1 {names[get]}")
    assert words[3].endswith(f"(their counter): give 1 {names[give]}, get 1 {names[counter]}")
    assert words[None] == "Withdraw the offer"
    game.apply(CANCEL)  # withdrawn: the answers stay on the page until the turn ends
    mailbox.post(len(game.observe(0).history), game.observe(0), 4e9)
    side = state(player, match)["side"]
    assert "You withdrew the offer." in side and 'data-answer="counter_trade"' in side
    for action in (offer, REJECT, REJECT, REJECT):  # the same offer again: all decline
        game.apply(action)
    mailbox.post(len(game.observe(0).history), game.observe(0), 4e9)
    side = state(player, match)["side"]
    assert "Nobody took it." in side and side.count('data-answer="reject_trade"') == 3
    game.apply(END_TURN)
    played_until(game, lambda g: g.state.decider == 0)
    mailbox.post(len(game.observe(0).history), game.observe(0), 4e9)
    assert "play-offer" not in state(player, match)["side"]  # last turn's offer is gone


def rated(version: BotVersion) -> None:
    Rating.objects.create(version=version, elo=1500, mu=25, sigma=8, games=30, wins=9)


def test_the_ladder_offers_a_game_against_each_bot_to_signed_in_people(player: Client) -> None:
    by_name = {v.builtin: v for v in register_builtins()}
    for name in ("heuristic", "random"):
        rated(by_name[name])
    page = player.get("/ladder/").content.decode()
    buttons = re.findall(r'<button form="play-form" formaction="(/bots/[\w-]+/play/)"', page)
    assert sorted(buttons) == ["/bots/heuristic/play/", "/bots/random/play/"]  # one a row
    assert '<form id="play-form" method="post"' in page and 'name="fillers"' in page
    anonymous = Client().get("/ladder/").content.decode()
    assert "Play against this bot" not in anonymous and "to play against these bots" in anonymous
    assert "Play against this bot" not in player.get("/").content.decode()  # the ladder's own
    # the row's button posts the ladder's form to the bot's own start (the same flow)
    refused = player.post("/bots/random/play/", {"players": "5", "back": "ladder"})
    assert refused.status_code == 302 and refused["Location"] == "/ladder/"
    assert not Match.objects.exists()  # the control below starts one
    form = {"players": "3", "fillers": "heuristic", "seat": "2", "back": "ladder"}
    answer = player.post("/bots/random/play/", form)
    match = Match.objects.get(person__username="player")
    assert answer["Location"] == f"/play/{match.pk}/"
    seats = [s.version.builtin for s in match.seats.order_by("seat")]
    assert seats == ["random", "heuristic", "heuristic"]  # the chosen bot, a filler, the person
    assert PersonSeat.objects.get(match=match).seat == 2
    unknown = player.post("/bots/heuristic/play/", form | {"back": "https://evil.example/"})
    assert unknown["Location"] == "/bots/heuristic/"  # never a URL from the request


def test_a_poll_at_the_same_step_does_not_simulate_the_game_again(
    player: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = start(player)
    claim = claim_match(match.pk, worker="test:1:1")
    assert claim is not None
    game = Game.new(RulesConfig(players=4), claim.seed)
    mailbox = DatabaseMailbox(match.pk, claim.attempt, game, claim.names)
    mailbox.post(0, game.observe(0), 4e9)
    simulated: list[int] = []
    real = state_at

    def counted(replay: Any, step: int, **options: Any) -> Game:
        simulated.append(step)
        return real(replay, step, **options)

    monkeypatch.setattr(play_view, "state_at", counted)
    first = state(player, match)
    assert simulated == [0] and first["choices"]
    again = state(player, match)  # the same step: drawn from the cache
    assert simulated == [0] and drawn(again) == drawn(first)
    assert "board" not in orjson.loads(player.get(f"/play/{match.pk}/state/?have=0:0").content)
    assert player.get(f"/play/{match.pk}/").status_code == 200 and simulated == [0]
    User.objects.create_user("other", password="pass-4521-word")
    other = Client()
    other.force_login(User.objects.get(username="other"))
    assert other.get(f"/play/{match.pk}/state/").status_code == 403  # checked every time
    forged = player.get(f"/play/{match.pk}/state/?have=../../play-view:{match.pk}:1:0:0")
    assert orjson.loads(forged.content)["board"] == first["board"]  # the key: server data
    # the control: the worker moves on (seat 1's settlement, its road next) and posts again
    game.apply(action_from_dict(first["choices"][0]["action"]))
    mailbox.post(1, game.observe(0), 4e9)
    moved = state(player, match)
    assert simulated == [0, 1] and moved["step"] == 1 and moved["board"] != first["board"]
    assert {c["spot"]["kind"] for c in moved["choices"]} == {"edge"}
    assert drawn(state(player, match)) == drawn(moved) and simulated == [0, 1]


def drawn(data: dict[str, Any]) -> dict[str, Any]:
    """A state without its clock (the seconds left run on)."""
    return {k: v for k, v in data.items() if k != "seconds_left"}


def test_a_bots_page_keeps_peoples_results_against_it_apart_from_the_ladder(
    player: Client,
) -> None:
    by_name = {v.builtin: v for v in register_builtins()}
    person = User.objects.get(username="player")
    table = [by_name["heuristic"], by_name["random"], by_name["random"]]

    def game(winner: int | None, status: str = "finished") -> Match:
        match = start_person_game(person, table, seat=0)  # seat 1: the person
        Match.objects.filter(pk=match.pk).update(status=status)
        if winner is not None:
            match.seats.filter(seat=winner).update(won=True)
        return match

    game(0)  # the person won (their seat plays heuristic's version as the autopilot)
    game(1)  # heuristic won
    game(2)  # random won
    bots_only = create_match(
        [by_name["heuristic"]] * 4, rules=RulesConfig(), limits=MatchLimits.default()
    )
    Match.objects.filter(pk=bots_only.pk).update(status="finished")  # not with a person
    bots_only.seats.filter(seat=0).update(won=True)
    game(1, status="running")  # not over
    assert people_record(by_name["heuristic"].bot_id) == PeopleRecord(3, 1, 1)
    assert people_record(by_name["random"].bot_id) == PeopleRecord(3, 1, 1)
    assert people_record(by_name["search"].bot_id) == PeopleRecord(0, 0, 0)
    page = Client().get("/bots/heuristic/").content.decode()
    assert "People played <strong>3</strong> games against heuristic" in page
    assert "people won 1, heuristic won 1" in page
    assert "Against people" not in Client().get("/bots/search/").content.decode()
    assert not Rating.objects.exists()  # never rated
