"""What a person's page shows of their game against bots (issue 23): their own seat's
view of the position the worker last posted (their hand and development cards, the
others' as counts: :func:`.replay_view.frame` with ``view``), the events in words, and
the decision waiting for them: exactly the legal actions the worker posted, each in
words and, for a piece or the robber, the spot on the board to click."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from catan_arena.matches.models import Match, PersonSeat
from catan_arena.web import replay_view
from catan_arena.web.board_svg import geometry
from catan_arena.web.play_offer import OfferView, last_offer
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
    frame: replay_view.Frame | None
    """The person's view of the posted position (None before the worker's first post,
    or when the page already has this one)."""
    choices: list[Choice]
    """The decision waiting for the person (empty: none now)."""
    seconds_left: float | None
    key: str | None = None
    """What names the posted position and decision (None before the first post)."""
    cards: list[CardLine] | None = None
    """The person's development cards by kind (None when no frame is drawn)."""
    offer: OfferView | None = None
    """The person's trade offer of the turn and the bots' answers (None: none made, or
    no frame drawn)."""

    @property
    def step(self) -> int | None:
        return self.seat.step if self.choices else None


def play_view(match: Match, seat: PersonSeat, have: str | None = None) -> PlayView:
    """The person's view of ``match`` (whose seat is ``seat``) now; no frame drawn when
    ``have`` is already its key (the page holds that board)."""
    replay = _replay(match)
    if replay is None:
        return PlayView(match, seat, None, [], None)
    game = state_at(replay, len(replay.steps), checked=False)  # written by our worker
    steps = len(replay.steps)
    choices: list[Choice] = []
    left = None
    if seat.step is not None and seat.step == steps and seat.legal:
        names = replay_view.seat_names(replay)
        for data in seat.legal:
            try:
                action = action_from_dict(data)
            except EngineError:
                continue
            choices.append(Choice(data, words(action, game, seat.seat, names), spot(action)))
        if seat.deadline is not None:
            left = max(0.0, (seat.deadline - timezone.now()).total_seconds())
    key = f"{steps}:{seat.step if choices else None}"
    if key == have:  # the page holds this board
        return PlayView(match, seat, None, choices, left, key)
    frame = replay_view.frame(replay, steps, view=seat.seat, game=game)
    offer = last_offer(replay, seat.seat, replay_view.seat_names(replay))
    return PlayView(match, seat, frame, choices, left, key, cards(game, seat.seat, choices), offer)


def _replay(match: Match) -> Replay | None:
    if match.status != Match.Status.RUNNING or not isinstance(match.live, dict):
        return None
    try:
        return Replay.from_dict(match.live)
    except (ReplayError, KeyError, TypeError, ValueError):
        return None
