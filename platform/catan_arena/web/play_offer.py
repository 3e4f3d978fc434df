"""The person's domestic trade offer on the play page (issue 23): what they offered the
bots this turn and each bot's answer, read from the game's steps (an offer every bot
declines closes at once, so the position alone would not show the answers)."""

from __future__ import annotations

from dataclasses import dataclass

from catan_arena.web.replay_view import bag_words
from engine.actions import ConfirmTrade, CounterTrade, ProposeTrade
from engine.replay import Replay, ReplayStep
from engine.types import Bag

ANSWERS = {"accept_trade": "accepts", "reject_trade": "declines"}
WAITING = "has not answered yet"


@dataclass(frozen=True)
class Answer:
    """One bot's answer: ``kind`` is the action's (``accept_trade``, ``reject_trade``,
    ``counter_trade``) or ``waiting``."""

    seat: int
    name: str
    kind: str
    words: str


@dataclass(frozen=True)
class OfferView:
    """The person's latest offer of the turn: its terms, every other seat's answer and
    how it ended (None while it is open)."""

    words: str
    answers: list[Answer]
    outcome: str | None


def offer_words(give: Bag, get: Bag) -> str:
    """An offer of the person's in their words: "1 brick for 1 wool"."""
    return f"{bag_words(give)} for {bag_words(get)}"


def _latest(steps: tuple[ReplayStep, ...], seat: int) -> int | None:
    """The index of ``seat``'s latest offer in the turn being played, if any."""
    for k in range(len(steps) - 1, -1, -1):
        step = steps[k]
        if step.action.kind == "end_turn":
            return None
        if isinstance(step.action, ProposeTrade):
            return k if step.seat == seat else None
    return None


def last_offer(replay: Replay, seat: int, names: list[str]) -> OfferView | None:
    """``seat``'s latest offer this turn and the answers to it; None if it made none."""
    steps = replay.steps
    k = _latest(steps, seat)
    if k is None:
        return None
    offer = steps[k].action
    assert isinstance(offer, ProposeTrade)
    others = [s for s in range(replay.config.players) if s != seat]
    answers = {s: Answer(s, names[s], "waiting", WAITING) for s in others}
    outcome = None
    for step in steps[k + 1 :]:
        action = step.action
        if isinstance(action, CounterTrade):
            words = f"counters: gives {bag_words(action.give)} for {bag_words(action.get)}"
            answers[step.seat] = Answer(step.seat, names[step.seat], action.kind, words)
        elif action.kind in ANSWERS:
            answers[step.seat] = Answer(
                step.seat, names[step.seat], action.kind, ANSWERS[action.kind]
            )
        elif isinstance(action, ConfirmTrade):
            outcome = f"You traded with {names[action.seat]}."
            break
        elif action.kind == "cancel_trade":
            outcome = "You withdrew the offer."
            break
    if outcome is None and all(a.kind == "reject_trade" for a in answers.values()):
        outcome = "Nobody took it."
    return OfferView(offer_words(offer.give, offer.get), list(answers.values()), outcome)
