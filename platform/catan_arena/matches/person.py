"""Writes of a person's game against bots (issue 23): start one, give a decision, say
the person is still there.

A person's game is an ordinary match (:func:`~.services.create_match`) with a
:class:`.PersonSeat`: the worker plays the bots in their sandboxes and waits for the
person through that row (:mod:`.person_mailbox`). It is never rated (not a ladder
match) and not counted in the bots' tallies. Every answer is refused with a message,
changing nothing, unless it is the signed-in person's, for the decision waiting now,
one of the legal actions posted for it, and legal by ``Game.check`` in the position
the worker posted."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from catan_arena.accounts.models import User
from catan_arena.core.errors import Conflict, Forbidden, Invalid, NotFound
from catan_arena.matches.models import Match, PersonSeat
from catan_arena.matches.services import MatchLimits, PersonSetup, create_match
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.services import register_builtins
from engine import EngineError, RulesConfig
from engine.actions import action_from_dict, action_to_json
from engine.config import PLAYER_COUNTS
from engine.errors import ReplayError
from engine.replay import Replay, state_at

AUTOPILOT = "heuristic"
"""The built-in that stands in for the person (their seat's version) and plays a
decision whose clock runs out."""


class DecisionRefused(Invalid):
    """A decision that is not the person's to give now, or not legal."""


def house_version(name: str) -> BotVersion:
    """The current version of the house bot ``name`` (the built-ins registered if it is
    missing); :class:`NotFound` for a name that is no built-in."""
    found = (
        BotVersion.objects.filter(builtin=name, status=BotVersion.Status.ACTIVE)
        .order_by("-number")
        .first()
    )
    if found is None:
        found = next((v for v in register_builtins() if v.builtin == name), None)
    if found is None:
        raise NotFound(f"no house bot {name!r}")
    return found


def game_in_progress(user: User) -> Match | None:
    """The person's game still queued or running, if any."""
    return Match.objects.filter(person=user, status__in=Match.IN_FLIGHT).first()


def start_person_game(
    user: User,
    bots: Sequence[BotVersion],
    *,
    seat: int | None = None,
    admit: Callable[[], None] | None = None,
    decision_seconds: float | None = None,
    away_seconds: float | None = None,
) -> Match:
    """A queued game of ``user`` against ``bots`` (2 or 3 active versions: the first is
    the one chosen, the others fill), the person in ``seat`` (random if None), the
    bots on the server's ordinary clock. One game in progress per person; ``admit``
    (the fair-use check) runs under a lock on the person's row, with the count."""
    if not user.is_authenticated:
        raise Forbidden("sign in to play against the bots")
    players = len(bots) + 1
    if players not in PLAYER_COUNTS:
        raise Invalid(f"a game seats 3 or 4 players; {players} asked")
    if any(v.status != BotVersion.Status.ACTIVE for v in bots):
        raise Invalid("every bot must be an active version")
    if seat is None:
        seat = secrets.randbelow(players)
    if not 0 <= seat < players:
        raise Invalid(f"seat {seat + 1} is not one of the {players} seats", field="seat")
    versions = list(bots)
    versions.insert(seat, house_version(AUTOPILOT))
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        if admit is not None:
            admit()
        playing = game_in_progress(user)
        if playing is not None:
            raise Conflict(f"you already have a game in progress (match {playing.pk}): finish it")
        person = PersonSetup(
            user.pk,
            seat,
            settings.PERSON_DECISION_SECONDS if decision_seconds is None else decision_seconds,
            settings.PERSON_AWAY_SECONDS if away_seconds is None else away_seconds,
        )
        return create_match(
            versions,
            rules=RulesConfig(players=players),
            limits=MatchLimits.default(),
            person=person,
        )


def _person_seat(user: Any, match_id: int) -> PersonSeat:
    seat = PersonSeat.objects.select_related("match").filter(match_id=match_id).first()
    if seat is None:
        raise NotFound("no such game")
    if not getattr(user, "is_authenticated", False) or seat.match.person_id != user.pk:
        raise Forbidden("this is not your game")
    return seat


def note_seen(user: Any, match_id: int) -> PersonSeat:
    """The person's page asked (they are still there); their seat."""
    seat = _person_seat(user, match_id)
    PersonSeat.objects.filter(pk=seat.pk).update(seen_at=timezone.now())
    return seat


def submit_decision(user: Any, match_id: int, step: object, action: object) -> None:
    """Give the person's ``action`` (its JSON form) for the decision at ``step``; raises
    :class:`DecisionRefused` (nothing changed) when it is not theirs to give now — not
    their game, not running, not their decision, a stale step, an answer already given
    — or not legal there."""
    seat = _person_seat(user, match_id)
    if seat.match.status != Match.Status.RUNNING:
        raise DecisionRefused("this game is not being played")
    if not isinstance(step, int) or isinstance(step, bool):
        raise DecisionRefused("the decision's step must be a number", field="step")
    if seat.step is None:
        raise DecisionRefused("no decision of yours is waiting: the bots are playing")
    if step != seat.step:
        raise DecisionRefused(f"step {step} is not the decision waiting (step {seat.step})")
    try:
        chosen = action_from_dict(action)
    except EngineError as exc:
        raise DecisionRefused(f"not an action: {exc}", field="action") from None
    if action_to_json(chosen) not in seat.legal:
        raise DecisionRefused(f"{chosen} is not one of your legal actions now", field="action")
    _check_in_position(seat, step, chosen)
    given = PersonSeat.objects.filter(pk=seat.pk, step=step, answer__isnull=True).update(
        answer={"step": step, "action": action_to_json(chosen)}
    )
    if not given:
        raise DecisionRefused("this decision was already taken")


def _check_in_position(seat: PersonSeat, step: int, action: Any) -> None:
    """``Game.check`` of ``action`` by the person's seat in the position the worker
    posted with the step."""
    live = Match.objects.filter(pk=seat.match_id).values_list("live", flat=True).first()
    try:
        replay = Replay.from_dict(live)
        if len(replay.steps) != step:
            raise DecisionRefused("the game moved on: try again")
        game = state_at(replay, step, checked=False)  # written by our worker
    except (ReplayError, KeyError, TypeError, ValueError):
        raise DecisionRefused("the game moved on: try again") from None
    if game.decider != seat.seat:
        raise DecisionRefused("it is another seat's decision")
    try:
        game.check(action)
    except EngineError as exc:
        raise DecisionRefused(f"not legal: {exc}", field="action") from None
