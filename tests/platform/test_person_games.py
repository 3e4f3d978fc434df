"""A person's game against bots (issue 23) on real parts: a ``celery worker`` plays the
bots in their sandboxes and waits for the person's decisions in the database; forged
decisions are refused with a message and change nothing (each beside its control); a
person who leaves is forfeited to the autopilot, which finishes the game; the game is an
ordinary finished match, marked as a person's, never rated and not in the bots'
tallies."""

from __future__ import annotations

import os
import random
import re
from typing import Any

import pytest
from django.test import override_settings

from catan_arena.abtests.fair_use import FairUseExceeded, admit_person_game, lock_author
from catan_arena.accounts.models import User
from catan_arena.core.errors import Conflict, Forbidden
from catan_arena.matches.models import Match, PersonSeat, SeatTally
from catan_arena.matches.person import (
    DecisionRefused,
    note_seen,
    start_person_game,
    submit_decision,
)
from catan_arena.matches.person_mailbox import DatabaseMailbox
from catan_arena.matches.selectors import replay_of
from catan_arena.matches.services import claim_match
from catan_arena.ratings.models import RatingChange
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins
from catan_arena.web.play_view import play_view
from engine import Game, RulesConfig
from engine.actions import REJECT, action_from_dict, action_to_json
from engine.types import Resource
from tests.support.celery_worker import CeleryWorker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]
PLAYED_SEED = 23
"""The games played at random to reach a position: a fixed seed, so the position comes
the same way every run."""


@pytest.fixture
def house() -> list[BotVersion]:
    """heuristic, random, random: the issue's table."""
    by_name = {v.builtin: v for v in register_builtins()}
    return [by_name["heuristic"], by_name["random"], by_name["random"]]


@pytest.fixture
def person(db: None) -> User:
    return User.objects.create_user("player", password="not-used-here-4521")


def waiting(seat: PersonSeat) -> bool:
    seat.refresh_from_db()
    return seat.step is not None and bool(seat.legal)


def admit(user: User) -> Any:
    def check() -> None:
        lock_author(user.pk)
        admit_person_game(user)

    return check


def test_starting_a_game_is_for_a_signed_in_person_one_at_a_time(
    person: User, house: list[BotVersion]
) -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(Forbidden):
        start_person_game(AnonymousUser(), house)  # type: ignore[arg-type]
    first = start_person_game(person, house, seat=0, admit=admit(person))  # the control
    assert first.kind == "person" and first.status == "queued" and not first.ladder
    assert [s.version.builtin for s in first.seats.order_by("seat")] == [
        "heuristic", "heuristic", "random", "random",
    ]  # fmt: skip
    with pytest.raises(Conflict, match="already have a game in progress"):
        start_person_game(person, house, admit=admit(person))
    assert Match.objects.filter(person=person).count() == 1


@override_settings(AUTHOR_MATCHES_IN_FLIGHT=1)
def test_a_persons_game_counts_against_their_fair_use(
    person: User, house: list[BotVersion]
) -> None:
    start_person_game(person, house, seat=0, admit=admit(person))  # the control: room for one
    Match.objects.filter(person=person).update(status="finished")
    BotVersion.objects.create(
        bot=house[0].bot.__class__.objects.create(name="mine", owner=person),
        number=1,
        content=house[0].content,
        kind=house[0].kind,
        status=BotVersion.Status.PENDING,
    )  # a validation in flight fills the room
    with pytest.raises(FairUseExceeded):
        start_person_game(person, house, seat=0, admit=admit(person))
    assert Match.objects.filter(person=person).count() == 1


def test_forged_decisions_are_refused_and_change_nothing(
    person: User, house: list[BotVersion]
) -> None:
    """Without a worker: the match claimed here and a decision posted as the worker
    posts it, so every refusal meets the exact position."""
    match = start_person_game(person, house, seat=0, admit=admit(person))
    claim = claim_match(match.pk, worker="test:1:1")
    assert claim is not None
    game = Game.new(RulesConfig(players=4), claim.seed)
    mailbox = DatabaseMailbox(match.pk, claim.attempt, game, claim.names)
    mailbox.post(0, game.observe(0), deadline=4e9)
    seat = PersonSeat.objects.get(match=match)
    legal = seat.legal[0]

    def unchanged() -> None:
        seat.refresh_from_db()
        assert seat.answer is None and seat.step == 0

    stranger = User.objects.create_user("stranger", password="not-used-here-4521")
    with pytest.raises(Forbidden):  # another person's game
        submit_decision(stranger, match.pk, 0, legal)
    unchanged()
    with pytest.raises(DecisionRefused, match="not one of your legal actions"):
        submit_decision(person, match.pk, 0, {"type": "build_city", "node": 0})
    unchanged()
    with pytest.raises(DecisionRefused, match="not an action"):
        submit_decision(person, match.pk, 0, {"type": "build_settlement", "node": 99})
    unchanged()
    for stale in (1, -1, "0", True):
        with pytest.raises(DecisionRefused):
            submit_decision(person, match.pk, stale, legal)
        unchanged()
    # another seat's decision
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    mailbox.post(2, game.observe(0), deadline=4e9)  # seat 1 to decide: nothing of seat 0's
    other = action_to_json(game.legal_actions()[0])
    with pytest.raises(DecisionRefused, match="not one of your legal actions"):
        submit_decision(person, match.pk, 2, other)
    mailbox.post(2, game.observe(1), deadline=4e9)  # even seat 1's list posted by mistake
    with pytest.raises(DecisionRefused, match="another seat's decision"):
        submit_decision(person, match.pk, 2, other)  # Game.check's position refuses it
    seat.refresh_from_db()
    assert seat.answer is None
    # the control: seat 0's own decision, legal, at the step waiting, is taken once
    game = Game.new(RulesConfig(players=4), claim.seed)
    mailbox.game = game
    mailbox.post(0, game.observe(0), deadline=4e9)
    submit_decision(person, match.pk, 0, legal)
    seat.refresh_from_db()
    assert seat.answer == {"step": 0, "action": legal}
    assert mailbox.answer(0) is not None
    with pytest.raises(DecisionRefused, match="already taken"):
        submit_decision(person, match.pk, 0, seat.legal[1])
    seat.refresh_from_db()
    assert seat.answer == {"step": 0, "action": legal}


def decide_then_leave(
    person: User, match: Match, decisions: int, log: Any
) -> list[tuple[int | None, Any]]:
    """The person takes ``decisions`` decisions as the worker asks for them (the last
    action listed), then leaves; returns once the autopilot has finished the game, with
    (step, action) of each decision taken."""
    seat = PersonSeat.objects.get(match=match)
    chosen = []
    for _ in range(decisions):
        wait_for(lambda: waiting(seat), 120, "the person's decision", log)
        action = seat.legal[-1]
        note_seen(person, match.pk)
        submit_decision(person, match.pk, seat.step, action)
        chosen.append((seat.step, action))
        wait_for(lambda s=seat.step: not waiting(seat) or seat.step != s, 30, "taken", log)

    def over() -> bool:  # the person left: once unseen for its away time, the autopilot
        match.refresh_from_db()
        return match.status in Match.DONE

    wait_for(over, 300, "the game finished by the autopilot", log)
    return chosen


def test_a_worker_plays_the_persons_decisions_then_the_autopilot_after_they_leave(
    server_mode: dict[str, str], workers: list[Any], person: User, house: list[BotVersion]
) -> None:
    workers.append(CeleryWorker(server_mode, concurrency=1))
    match = start_person_game(person, house, seat=0, decision_seconds=60, away_seconds=8)
    chosen = decide_then_leave(person, match, 4, workers[0])  # settlement, road, and on
    assert match.status == "finished" and match.kind == "person"
    replay = replay_of(match)
    assert replay is not None
    assert replay["seats"][0]["name"] == "player (person)"
    steps = replay["steps"]
    for step, action in chosen:
        assert steps[step]["seat"] == 0 and steps[step]["action"] == action
    row = match.seats.get(seat=0)
    assert row.forfeit is not None and "away" in row.forfeit["reason"]
    assert not RatingChange.objects.filter(match=match).exists()
    assert not SeatTally.objects.exists()  # a person's game is not in the bots' record


class _Spawned:
    """What :func:`wait_for` shows of a spawned worker (its log went to the test's)."""

    def __init__(self, process: Any) -> None:
        self.process = process

    def output(self) -> str:
        return f"(a spawned match worker: alive {self.process.is_alive()})"


def test_make_serves_match_worker_plays_a_persons_game(
    subprocess_env: dict[str, str], person: User, house: list[BotVersion]
) -> None:
    """The embedded default (``make serve``'s match workers, no broker) plays a person's
    game the same way: the person's decisions taken from the database, then the
    autopilot once they leave."""
    import multiprocessing
    import signal

    from catan_arena.embedded.workers import match_worker

    match = start_person_game(person, house, seat=0, decision_seconds=60, away_seconds=6)
    worker = multiprocessing.get_context("spawn").Process(target=match_worker)
    worker.start()
    log = _Spawned(worker)
    try:
        chosen = decide_then_leave(person, match, 2, log)  # the first settlement, its road
    finally:
        if worker.pid is not None and worker.is_alive():
            os.kill(worker.pid, signal.SIGTERM)
        worker.join(60)
    assert match.status == "finished" and match.kind == "person"
    replay = replay_of(match)
    assert replay is not None
    for step, action in chosen:
        assert replay["steps"][step]["seat"] == 0 and replay["steps"][step]["action"] == action
    forfeit = match.seats.get(seat=0).forfeit
    assert forfeit is not None and "away" in forfeit["reason"]


def test_a_forged_trade_offer_is_refused_and_changes_nothing(
    person: User, house: list[BotVersion]
) -> None:
    """The person may offer the bots exactly the offers the engine lists (one card for
    one, of cards they hold), answer only their own decision, and confirm only with a
    bot that accepted; the control: a listed offer is taken."""
    match = start_person_game(person, house, seat=0, admit=admit(person))
    claim = claim_match(match.pk, worker="test:1:1")
    assert claim is not None
    game = Game.new(RulesConfig(players=4), PLAYED_SEED)  # the posted replay carries it
    mailbox = DatabaseMailbox(match.pk, claim.attempt, game, claim.names)
    rng = random.Random(23)
    for _ in range(20_000):  # random play (no offers) until seat 1 may offer a trade
        if game.state.decider == 0 and "propose_trade" in kinds(game):
            break
        legal = [a for a in game.legal_actions() if a.kind != "propose_trade"]
        game.apply(rng.choice(legal))
    step = len(game.observe(0).history)
    mailbox.post(step, game.observe(0), deadline=4e9)
    hand = game.state.hands[0]
    give = next(r for r in range(5) if hand[r])
    get = (give + 1) % 5
    seat = PersonSeat.objects.get(match=match)

    def bag(**counts: int) -> dict[str, int]:
        return {r.label: counts.get(r.label, 0) for r in Resource}

    def refused(action: dict[str, Any], message: str) -> None:
        with pytest.raises(DecisionRefused, match=message):
            submit_decision(person, match.pk, step, action)
        seat.refresh_from_db()
        assert seat.answer is None and seat.step == step

    names = [r.label for r in Resource]
    offer = {
        "type": "propose_trade",
        "give": bag(**{names[give]: 1}),
        "get": bag(**{names[get]: 1}),
    }
    more = {names[give]: hand[give] + 1}  # more cards than the person holds
    refused(offer | {"give": bag(**more)}, "not one of your legal actions")
    two = {names[give]: 1, names[(give + 2) % 5]: 1}  # legal by the engine, never listed
    refused(offer | {"get": bag(**two)}, "not one of your legal actions")
    refused(offer | {"get": bag(**{names[give]: 1})}, "not")  # like for like
    refused(offer | {"give": bag(**{names[give]: -1})}, "not")  # a negative count
    refused({"type": "accept_trade"}, "not one of your legal actions")  # the bots' answer
    refused({"type": "confirm_trade", "seat": 1}, "not one of your legal actions")
    submit_decision(person, match.pk, step, offer)  # the control: the listed offer
    seat.refresh_from_db()
    assert seat.answer == {"step": step, "action": action_to_json(action_from_dict(offer))}
    # the bots' answers: the person may not answer for a bot, nor confirm with one that
    # declined (even with the bot's list posted by mistake, Game.check's position refuses)
    game.apply(action_from_dict(offer))
    for _ in range(3):
        mailbox.post(step + 1, game.observe(game.state.decider), deadline=4e9)
        with pytest.raises(DecisionRefused, match="another seat's decision"):
            submit_decision(person, match.pk, step + 1, {"type": "reject_trade"})
        seat.refresh_from_db()
        assert seat.answer is None
        game.apply(REJECT)
        step += 1
    assert game.state.phase.name == "MAIN"  # all declined: nothing to confirm
    mailbox.post(step + 1, game.observe(0), deadline=4e9)
    with pytest.raises(DecisionRefused, match="not one of your legal actions"):
        submit_decision(person, match.pk, step + 1, {"type": "confirm_trade", "seat": 1})


def kinds(game: Game) -> set[str]:
    return {a.kind for a in game.legal_actions()}


PRIORITY = ("propose_trade", "roll_dice", "reject_trade", "end_turn")
"""The person's choices in the game below: an offer to the bots as soon as one is listed."""


def test_the_bots_answer_the_persons_offer_and_the_page_shows_it(
    server_mode: dict[str, str], workers: list[Any], person: User, house: list[BotVersion]
) -> None:
    workers.append(CeleryWorker(server_mode, concurrency=1))
    match = start_person_game(person, house, seat=0, decision_seconds=120, away_seconds=120)
    seat = PersonSeat.objects.get(match=match)
    offered = None
    for _ in range(60):
        wait_for(lambda: waiting(seat), 120, "the person's decision", workers[0])
        note_seen(person, match.pk)
        listed = {a["type"]: a for a in reversed(seat.legal)}  # the first of each kind
        kind = next((k for k in PRIORITY if k in listed), None)
        action = seat.legal[-1] if kind is None else listed[kind]
        submit_decision(person, match.pk, seat.step, action)
        if kind == "propose_trade":
            offered = seat.step
            break
        wait_for(lambda s=seat.step: not waiting(seat) or seat.step != s, 30, "taken", workers[0])
    assert offered is not None, "no offer was listed for the person"

    # the bots answer in turn; the person's next decision shows their answers
    def moved_on() -> bool:
        return waiting(seat) and (seat.step or 0) > offered

    wait_for(moved_on, 120, "the answers", workers[0])
    match.refresh_from_db()
    assert isinstance(match.live, dict)
    steps = match.live["steps"]
    answers = steps[offered + 1 : offered + 4]
    assert [s["seat"] for s in answers] == [1, 2, 3]
    assert {s["action"]["type"] for s in answers} <= {"accept_trade", "reject_trade"}
    side = play_view(match, seat).side
    assert side is not None and "Your offer:" in side
    shown = re.findall(r'<li data-seat="(\d)" data-answer="(\w+)">', side)
    assert shown == [(str(s["seat"]), s["action"]["type"]) for s in answers]
    accepted = [s["seat"] for s in answers if s["action"]["type"] == "accept_trade"]
    confirms = sorted(a["seat"] for a in seat.legal if a["type"] == "confirm_trade")
    assert confirms == accepted  # the person may trade with exactly those who accepted
    assert ("Nobody took it." in side) == (not accepted)
