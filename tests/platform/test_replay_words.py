"""The replay viewer's events in words, trades included (no database needed)."""

from __future__ import annotations

import pytest

from catan_arena.web.replay_view import bag_words, describe
from engine.actions import (
    AcceptTrade,
    Action,
    CancelTrade,
    ConfirmTrade,
    CounterTrade,
    Discard,
    MaritimeTrade,
    MoveRobber,
    PlayMonopoly,
    PlayYearOfPlenty,
    ProposeTrade,
    RejectTrade,
    RollDice,
)
from engine.replay import ReplayStep
from engine.types import Resource

NAMES = ["Red", "Blue", "White", "Orange"]
LUMBER, BRICK, WOOL, GRAIN, ORE = (
    Resource.parse(n) for n in ("lumber", "brick", "wool", "grain", "ore")
)


def bag(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(r.label, 0) for r in Resource)


@pytest.mark.parametrize(
    ("seat", "action", "outcome", "words"),
    [
        (2, ProposeTrade(bag(wool=2), bag(ore=1)), None, "White offers 2 wool for 1 ore"),
        (0, AcceptTrade(), None, "Red accepts"),
        (1, RejectTrade(), None, "Blue declines"),
        (3, CounterTrade(bag(brick=1), bag(grain=1, ore=1)), None,
         "Orange counters: 1 brick for 1 grain and 1 ore"),
        (2, ConfirmTrade(0), None, "White trades with Red"),
        (2, CancelTrade(), None, "White withdraws the offer"),
        (1, MaritimeTrade(WOOL, ORE), None, "Blue trades wool for ore with the bank"),
        (1, MoveRobber(4, 3), "wool", "Blue moves the robber and steals a card from Orange"),
        (0, Discard(GRAIN), None, "Red discards 1 grain"),
        (0, PlayMonopoly(ORE), None, "Red plays monopoly on ore"),
        (0, PlayYearOfPlenty(LUMBER, BRICK), None, "Red plays year of plenty: brick and lumber"),
        (3, RollDice(), [3, 4], "Orange rolls 3 + 4 = 7"),
    ],
)  # fmt: skip
def test_each_step_in_words(seat: int, action: Action, outcome: object, words: str) -> None:
    assert describe(ReplayStep(seat, action, outcome), NAMES) == words


def test_a_steal_never_names_the_card() -> None:
    assert "wool" not in describe(ReplayStep(1, MoveRobber(4, 3), "wool"), NAMES)


def test_bags_in_words() -> None:
    assert bag_words(bag()) == "nothing"
    assert bag_words(bag(lumber=1, brick=2, ore=3)) == "2 brick, 1 lumber and 3 ore"
