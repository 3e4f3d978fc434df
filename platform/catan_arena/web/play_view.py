"""What a person's page shows of their game against bots (issue 23): their own seat's
view of the position the worker last posted (their hand and development cards, the
others' as counts: :func:`.replay_view.frame` with ``view``), the events in words, and
the decision waiting for them: exactly the legal actions the worker posted, each in
words and, for a piece or the robber, the spot on the board to click."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models.fields.json import KeyTransform
from django.template.loader import render_to_string
from django.utils import timezone

from catan_arena.matches.models import Match, PersonSeat
from catan_arena.web import replay_view
from catan_arena.web.board_svg import geometry
from catan_arena.web.live import StepCount
from catan_arena.web.play_offer import last_offer
from engine.actions import (
    Action,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    ConfirmTrade,
    CounterTrade,
    Discard,
    MaritimeTrade,
    MoveRobber,
    PlayMonopoly,
    PlayYearOfPlenty,
    ProposeTrade,
    action_from_dict,
)
from engine.errors import EngineError, ReplayError
from engine.game import Game
from engine.replay import Replay, state_at
from engine.types import Bag, DevCard, Resource

WORDS = {
    "roll_dice": "Roll the dice",
    "end_turn": "End the turn",
    "buy_dev_card": "Buy a development card",
    "play_knight": "Play a knight",
    "play_road_building": "Play road building",
    "accept_trade": "Accept the offer",
    "reject_trade": "Decline the offer",
    "cancel_trade": "Withdraw the offer",
}
GROUPS = {
    "discard": "Discard (one card at a time)",
    "maritime_trade": "Trade with the bank",
    "play_year_of_plenty": "Year of Plenty",
    "play_monopoly": "Monopoly",
    "confirm_trade": "Trade with",
    "counter_trade": "Counter-offers",
    "propose_trade": "Offer a trade",
}
"""Kinds offered as a choice in a dialog (a list to pick from), by its title."""


@dataclass(frozen=True)
class Choice:
    """One legal action: its JSON form, words, and the board spot to click (if any)."""

    action: dict[str, Any]
    words: str
    spot: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "words": self.words, "spot": self.spot}


def _bag(bag: Bag) -> str:
    return replay_view.bag_words(bag)


def words(action: Action, game: Game, seat: int, names: list[str]) -> str:
    """An action of ``seat`` in the person's words ("Trade 4 wool for 1 ore")."""
    match action:
        case BuildSettlement(node=node):
            return f"Build a settlement at {node}"
        case BuildRoad(edge=edge):
            return f"Build a road at {edge}"
        case BuildCity(node=node):
            return f"Build a city at {node}"
        case MoveRobber(hex=hex_, victim=victim):
            steal = "" if victim is None else f" and steal from {names[victim]}"
            return f"Move the robber to hex {hex_}{steal}"
        case MaritimeTrade(give=give, get=get):
            ratio = game.state.ratios[seat][int(give)]
            return f"Give {ratio} {give.label} for 1 {get.label}"
        case Discard(resource=resource):
            return f"Discard 1 {resource.label}"
        case PlayYearOfPlenty(first=first, second=second):
            return f"Take {first.label} and {second.label}"
        case PlayMonopoly(resource=resource):
            return f"Take every {Resource(resource).label}"
        case ConfirmTrade(seat=other):
            return f"Trade with {names[other]}{_terms(game, other)}"
        case CounterTrade(give=give, get=get) | ProposeTrade(give=give, get=get):
            return f"{_bag(give)} for {_bag(get)}"
    return WORDS.get(action.kind, str(action))


def _terms(game: Game, other: int) -> str:
    """What the person gives and gets trading with ``other`` (its acceptance of the
    offer, or its counter-offer: it gives ``give`` and receives ``get``)."""
    state = game.state
    if state.offer is None or other >= len(state.responses):
        return ""
    answer = state.responses[other]
    if isinstance(answer, tuple):
        their_give, their_get = answer
        return f" (their counter): give {_bag(their_get)}, get {_bag(their_give)}"
    give, get = state.offer
    return f": give {_bag(give)}, get {_bag(get)}"


def spot(action: Action) -> dict[str, Any] | None:
    """Where on the board the action is chosen: a node, an edge or a hex (their
    coordinates from :func:`.board_svg.geometry`); None for the others."""
    shape: dict[str, list[dict[str, Any]]] = geometry()
    match action:
        case BuildSettlement(node=node) | BuildCity(node=node):
            return {"kind": "node", "at": node} | shape["nodes"][node]
        case BuildRoad(edge=edge):
            return {"kind": "edge", "at": edge} | shape["edges"][edge]
        case MoveRobber(hex=hex_):
            return {"kind": "hex", "at": hex_} | shape["hexes"][hex_]
    return None


PLAYS = {
    DevCard.KNIGHT: "play_knight",
    DevCard.ROAD_BUILDING: "play_road_building",
    DevCard.YEAR_OF_PLENTY: "play_year_of_plenty",
    DevCard.MONOPOLY: "play_monopoly",
}
"""The action that plays each kind of development card (victory points are never
played)."""


@dataclass(frozen=True)
class CardLine:
    """The person's development cards of one kind: how many, how many of them bought
    this turn (not playable before the next), and whether one may be played now (a
    legal action posted for it)."""

    kind: str
    count: int
    new: int
    playable: bool


def cards(game: Game, seat: int, choices: list[Choice]) -> list[CardLine]:
    """The development cards ``seat`` holds, by kind (only that seat's own view shows
    them: the others' stay a count in the players' panels)."""
    state = game.state
    held, new = state.devs[seat], state.devs_new if state.current == seat else [0] * 5
    offered = {c.action["type"] for c in choices}
    return [
        CardLine(card.label.replace("_", " "), held[card], new[card], PLAYS.get(card) in offered)
        for card in DevCard
        if held[card]
    ]


@dataclass(frozen=True)
class PlayView:
    match: Match
    seat: PersonSeat
    choices: list[Choice]
    """The decision waiting for the person (empty: none now)."""
    seconds_left: float | None
    key: str | None = None
    """What names the posted position and decision (None before the first post)."""
    board: str | None = None
    """The board as SVG (None before the worker's first post, or when the page already
    has this one: ``have`` is its key)."""
    side: str | None = None
    """The side panel's HTML (``web/_play_side.html``: the events, the players, the
    person's development cards by kind and trade offer), None with ``board``."""

    @property
    def step(self) -> int | None:
        return self.seat.step if self.choices else None


CACHED = 600
"""Seconds one drawn position stays cached (a poll at the same step draws nothing)."""


def play_view(match: Match, seat: PersonSeat, have: str | None = None) -> PlayView:
    """The person's view of ``match`` (whose seat is ``seat``) now; no board when
    ``have`` is already its key (the page holds that board).

    The position is re-simulated and drawn once per (match, attempt, steps written,
    decision posted), all read from the database, never from the request, and kept in
    the cache: a poll that finds the same counts the steps in the database (the blob
    is not loaded) and reads it. The caller has checked the person's right to the seat."""
    if match.status != Match.Status.RUNNING:
        return PlayView(match, seat, [], None)
    counted = (
        Match.objects.filter(pk=match.pk)
        .annotate(written=StepCount(KeyTransform("steps", "live")))
        .values_list("attempts", "written")
        .first()
    )
    if counted is None or counted[1] is None:  # nothing written yet
        return PlayView(match, seat, [], None)
    attempt, written = counted
    decision = seat.step if seat.step == written and seat.legal else None
    key = f"{written}:{decision}"
    drawn = _drawn(match.pk, attempt, written, decision, seat)
    if drawn is None:
        return PlayView(match, seat, [], None)
    choices = [Choice(**c) for c in drawn["choices"]]
    left = None
    if choices and seat.deadline is not None:
        left = max(0.0, (seat.deadline - timezone.now()).total_seconds())
    if key == have:  # the page holds this board
        return PlayView(match, seat, choices, left, key)
    return PlayView(match, seat, choices, left, key, drawn["board"], drawn["side"])


def _drawn(
    match_id: int, attempt: int, written: int, decision: int | None, seat: PersonSeat
) -> dict[str, Any] | None:
    """The position after ``written`` steps of this attempt drawn for the person
    (``board``, ``side``, ``choices``: JSON-ready), from the cache or drawn now."""
    key = f"play-view:{match_id}:{attempt}:{written}:{decision}"
    found = cache.get(key)
    if isinstance(found, dict):
        return found
    live = (
        Match.objects.filter(pk=match_id, attempts=attempt, status=Match.Status.RUNNING)
        .values_list("live", flat=True)
        .first()
    )
    replay = _replay(live, written)
    if replay is None:
        return None
    game = state_at(replay, written, checked=False)  # written by our worker
    names = replay_view.seat_names(replay)
    choices: list[Choice] = []
    for data in seat.legal if decision is not None else []:
        try:
            action = action_from_dict(data)
        except EngineError:
            continue
        choices.append(Choice(data, words(action, game, seat.seat, names), spot(action)))
    frame = replay_view.frame(replay, written, view=seat.seat, game=game)
    side = render_to_string(
        "web/_play_side.html",
        {
            "frame": frame,
            "cards": cards(game, seat.seat, choices),
            "offer": last_offer(replay, seat.seat, names),
        },
    )
    drawn = {"board": frame.svg, "side": side, "choices": [c.to_json() for c in choices]}
    cache.set(key, drawn, timeout=CACHED)
    return drawn


def _replay(live: object, steps: int) -> Replay | None:
    """The live replay's first ``steps`` steps (the worker may have written more since
    they were counted); None if it holds fewer or is not a replay."""
    if not isinstance(live, dict):
        return None
    try:
        replay = Replay.from_dict(live)
    except (ReplayError, KeyError, TypeError, ValueError):
        return None
    if len(replay.steps) < steps:
        return None
    return dataclasses.replace(replay, steps=replay.steps[:steps])
