"""The replay viewer, drawn on the server: the board at any step as SVG (hexes, numbers,
harbors, roads, settlements, cities, the robber), each player's panel, the step's event
in words, and the steps to jump to. The step is in the URL, so a moment can be shared;
``view`` = a seat shows only what that seat saw (other hands as counts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from catan_arena.web.board_svg import SEAT_COLOURS, board_svg, last_move, mark_svg
from engine.actions import (
    ConfirmTrade,
    CounterTrade,
    Discard,
    MaritimeTrade,
    MoveRobber,
    PlayMonopoly,
    PlayYearOfPlenty,
    ProposeTrade,
)
from engine.game import Game
from engine.replay import Replay, ReplayStep, state_at
from engine.types import Bag, Resource

SEAT_NAMES = ("Red", "Blue", "White", "Orange")
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
RECENT = 8
"""How many of the latest events the side panel lists."""


@dataclass
class PlayerPanel:
    seat: int
    name: str
    colour: str
    points: int
    cards: int
    hand: dict[str, int] | None
    """Resources by name; None where this view may not see them."""
    dev_cards: int
    knights: int
    longest_road: bool
    largest_army: bool

    @property
    def mark(self) -> str:
        """The seat's colour and mark (SVG)."""
        return mark_svg(self.seat)


@dataclass(frozen=True)
class Standing:
    """A seat's place at the end and where its points came from."""

    place: int
    seat: int
    name: str
    points: int
    settlements: int
    cities: int
    longest_road: bool
    largest_army: bool
    vp_cards: int

    @property
    def mark(self) -> str:
        return mark_svg(self.seat)


@dataclass(frozen=True)
class Ending:
    """How the game ended: its winner (None when the turn cap cut it short) and the
    standings, best first."""

    winner: str | None
    turns: int
    standings: list[Standing]


@dataclass
class Frame:
    step: int
    steps: int
    svg: str
    players: list[PlayerPanel]
    dice: tuple[int, int] | None
    jumps: dict[str, int | None] = field(default_factory=dict)
    recent: list[tuple[int, str]] = field(default_factory=list)
    """The last few steps up to this one in words, newest first: (step, words)."""
    ending: Ending | None = None
    """At the last step of a finished game: who won and how."""

    @property
    def event(self) -> str:
        """This step in words."""
        return self.recent[0][1] if self.recent else "The board is set."

    @property
    def dice_faces(self) -> str:
        """The dice on the table as faces and a sum ("⚅ ⚄ = 11"); "" before any roll."""
        if not self.dice:
            return ""
        a, b = self.dice
        return f"{DIE_FACES[a - 1]} {DIE_FACES[b - 1]} = {a + b}"


def frame(
    replay: Replay,
    step: int,
    view: int | None = None,
    public: bool = False,
    game: Game | None = None,
) -> Frame:
    """The viewer at ``step`` (clamped into 0..steps), seen by all or by seat ``view``;
    ``public``: only what every seat sees (a running match's live view); ``game``: the
    state after ``step`` steps if the caller has it (else re-simulated here)."""
    total = len(replay.steps)
    step = max(0, min(step, total))
    game = state_at(replay, step, checked=False) if game is None else game  # stored by us
    names = seat_names(replay)
    recent = [
        (k, describe(replay.steps[k - 1], names)) for k in range(step, max(0, step - RECENT), -1)
    ]
    latest = replay.steps[step - 1] if step else None
    return Frame(
        step=step,
        steps=total,
        svg=board_svg(game.layout, game.state, last_move(latest), rolled_number(latest)),
        players=_panels(game, names, view, public),
        dice=game.state.dice,
        jumps=_jumps(replay, step),
        recent=recent,
        ending=ending(replay, game, names) if step == total else None,
    )


def seat_names(replay: Replay) -> list[str]:
    """Each seat's name (the bot's, else its colour)."""
    return [str(s.get("name", SEAT_NAMES[s["seat"]])) for s in replay.seats] or [
        SEAT_NAMES[i] for i in range(replay.config.players)
    ]


def rolled_number(step: ReplayStep | None) -> int | None:
    """The number a roll step rolled (None for any other step)."""
    if step is None or step.action.kind != "roll_dice":
        return None
    outcome = step.outcome
    return sum(outcome) if isinstance(outcome, list) and len(outcome) == 2 else None


def ending(replay: Replay, last: Game, names: list[str]) -> Ending | None:
    """The end of a finished game (``last``: its final state): the recorded points and
    places, and where the points came from (settlements 1, cities 2, Longest Road 2,
    Largest Army 2, victory-point cards 1: all shown once the game is over)."""
    result = replay.result
    if not result:
        return None
    state = last.state
    rows = []
    for seat in range(state.n):
        owned = [k for o, k in zip(state.node_owner, state.node_kind, strict=True) if o == seat]
        rows.append(
            Standing(
                place=int(result["placings"][seat]),
                seat=seat,
                name=names[seat] if seat < len(names) else SEAT_NAMES[seat],
                points=int(result["points"][seat]),
                settlements=owned.count(1),
                cities=owned.count(2),
                longest_road=state.longest_road == seat,
                largest_army=state.largest_army == seat,
                vp_cards=int(state.devs[seat][4]),
            )
        )
    rows.sort(key=lambda r: (r.place, -r.points, r.seat))
    winner = result.get("winner")
    return Ending(
        winner=names[winner] if isinstance(winner, int) and winner < len(names) else None,
        turns=int(result.get("turns", 0)),
        standings=rows,
    )


def _panels(game: Game, names: list[str], view: int | None, public: bool) -> list[PlayerPanel]:
    state = game.state
    panels = []
    for seat in range(state.n):
        hand = state.hands[seat]
        visible = not public and (view is None or view == seat)
        panels.append(
            PlayerPanel(
                seat=seat,
                name=names[seat] if seat < len(names) else SEAT_NAMES[seat],
                colour=SEAT_COLOURS[seat],
                points=state.public_vp[seat] if not visible else _all_points(state, seat),
                cards=sum(hand),
                hand={Resource(r).name.lower(): n for r, n in enumerate(hand)} if visible else None,
                dev_cards=sum(state.devs[seat]),
                knights=state.knights[seat],
                longest_road=state.longest_road == seat,
                largest_army=state.largest_army == seat,
            )
        )
    return panels


def _all_points(state: Any, seat: int) -> int:
    """Public points plus the victory-point cards only the seat (and the all-seeing
    view) know of."""
    return int(state.public_vp[seat] + state.devs[seat][4])


VERBS = {
    "roll_dice": "rolls",
    "build_road": "builds a road",
    "build_settlement": "builds a settlement",
    "build_city": "builds a city",
    "buy_dev_card": "buys a development card",
    "end_turn": "ends the turn",
    "play_knight": "plays a knight",
    "play_road_building": "plays road building",
    "play_year_of_plenty": "plays year of plenty",
    "play_monopoly": "plays monopoly",
    "discard": "discards",
    "move_robber": "moves the robber",
    "maritime_trade": "trades with the bank",
    "propose_trade": "offers a trade",
    "accept_trade": "accepts",
    "reject_trade": "declines",
    "confirm_trade": "confirms the trade",
    "cancel_trade": "withdraws the offer",
    "counter_trade": "counters the offer",
}


def describe(step: ReplayStep, names: list[str]) -> str:
    """One step in words: "Red builds a city", "Blue rolls 3 + 4 = 7", "White offers
    2 wool for 1 ore", "Red accepts", "White trades with Red"."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else SEAT_NAMES[seat % len(SEAT_NAMES)]

    who, action, kind = name(step.seat), step.action, step.action.kind
    if kind == "roll_dice" and isinstance(step.outcome, list) and len(step.outcome) == 2:
        a, b = step.outcome
        return f"{who} rolls {a} + {b} = {a + b}"
    match action:
        case MoveRobber(victim=int(victim)):
            return f"{who} moves the robber and steals a card from {name(victim)}"
        case ProposeTrade(give=give, get=get):
            return f"{who} offers {bag_words(give)} for {bag_words(get)}"
        case CounterTrade(give=give, get=get):
            return f"{who} counters: {bag_words(give)} for {bag_words(get)}"
        case ConfirmTrade(seat=seat):
            return f"{who} trades with {name(seat)}"
        case MaritimeTrade(give=give_one, get=get_one):
            return f"{who} trades {give_one.label} for {get_one.label} with the bank"
        case Discard(resource=resource):
            return f"{who} discards 1 {resource.label}"
        case PlayMonopoly(resource=resource):
            return f"{who} plays monopoly on {resource.label}"
        case PlayYearOfPlenty(first=first, second=second):
            return f"{who} plays year of plenty: {first.label} and {second.label}"
    return f"{who} {VERBS.get(kind, str(action))}"


def bag_words(bag: Bag) -> str:
    """A bag of cards in words: "2 wool and 1 ore"; "nothing" when empty."""
    parts = [f"{n} {Resource(r).label}" for r, n in enumerate(bag) if n]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


BUILDS = ("build_road", "build_settlement", "build_city")


def _jumps(replay: Replay, step: int) -> dict[str, int | None]:
    """Where the navigation buttons go from ``step``."""
    steps = replay.steps
    total = len(steps)

    def next_where(test: Any) -> int | None:
        for k in range(step, total):
            if test(steps[k]):
                return k + 1
        return None

    return {
        "first": 0 if step else None,
        "back": step - 1 if step else None,
        "forward": step + 1 if step < total else None,
        "last": total if step < total else None,
        "next_turn": next_where(lambda s: s.action.kind == "end_turn"),
        "next_seven": next_where(
            lambda s: (
                s.action.kind == "roll_dice" and isinstance(s.outcome, list) and sum(s.outcome) == 7
            )
        ),
        "next_build": next_where(lambda s: s.action.kind in BUILDS),
    }
