"""Trade (Almanac: Maritime Trade, Harbors, Domestic Trade, Combined Trade/Build Phase)."""

from __future__ import annotations

import pytest

from engine import Game, IllegalActionError, Phase, Resource
from engine.actions import (
    AcceptTrade,
    BuildRoad,
    BuildSettlement,
    CancelTrade,
    ConfirmTrade,
    CounterTrade,
    MaritimeTrade,
    ProposeTrade,
    RejectTrade,
)
from tests.support.positions import (
    FIELDS_12,
    HILLS_6,
    HILLS_10,
    MOUNTAINS_10,
    PASTURE_2,
    bag,
    corner,
    hand_of,
    new_game,
    node_at,
    put_road_through,
    put_settlement,
    set_bank,
    set_hand,
    snapshot,
)

BRICK, LUMBER, WOOL, GRAIN, ORE = tuple(Resource)

# --- maritime trade -------------------------------------------------------------------

# The beginner map's 3:1 harbor on the north-west coast of Mountains-10, and its 2:1 ore
# harbor on the north coast of Hills-10.
GENERIC_HARBOR = corner(MOUNTAINS_10, "N")
ORE_HARBOR = corner(HILLS_10, "N")
INLAND = node_at(FIELDS_12, HILLS_6, MOUNTAINS_10)


def trader(home: int, **hand: int) -> Game:
    """Seat 0, after rolling, with a settlement on ``home`` and ``hand``."""
    game = new_game(seat=0)
    put_settlement(game, 0, home)
    set_hand(game, 0, **hand)
    return game


def test_four_to_one_without_harbor() -> None:
    """Benny returns 4 ore to the supply and takes 1 lumber."""
    game = trader(INLAND, ore=4)
    assert game.state.ratios[0] == [4, 4, 4, 4, 4]
    game.apply(MaritimeTrade(ORE, LUMBER))
    assert hand_of(game, 0) == bag(lumber=1)
    assert game.state.bank == [19, 18, 19, 19, 19]


def test_three_cards_are_not_enough_without_harbor() -> None:
    """4:1 is the basic rate: 3 ore buy nothing without a harbor."""
    game = trader(INLAND, ore=3)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="needs 4 ore"):
        game.apply(MaritimeTrade(ORE, LUMBER))
    assert snapshot(game) == before


def test_generic_harbor_three_to_one() -> None:
    """Brad has a settlement at a generic harbor: 3 lumber for 1 wool."""
    game = trader(GENERIC_HARBOR, lumber=3)
    assert game.state.ratios[0] == [3, 3, 3, 3, 3]
    game.apply(MaritimeTrade(LUMBER, WOOL))
    assert hand_of(game, 0) == bag(wool=1)
    assert game.state.bank == [19, 19, 18, 19, 19]


def test_ore_harbor_two_ore_for_any_one() -> None:
    """Ron (ore harbor) exchanges 2 ore for any 1 other resource card."""
    game = trader(ORE_HARBOR, ore=2)
    assert game.state.ratios[0] == [4, 4, 4, 4, 2]
    game.apply(MaritimeTrade(ORE, GRAIN))
    assert hand_of(game, 0) == bag(grain=1)


def test_ore_harbor_four_ore_for_two_cards() -> None:
    """Rulebook: "He can also trade 4 ore cards for any 2 other cards" (two 2:1 trades)."""
    game = trader(ORE_HARBOR, ore=4)
    game.apply(MaritimeTrade(ORE, BRICK))
    game.apply(MaritimeTrade(ORE, WOOL))
    assert hand_of(game, 0) == bag(brick=1, wool=1)
    assert game.state.bank == [18, 19, 18, 19, 19]


def test_ore_harbor_gives_nothing_better_for_wool() -> None:
    """Rulebook: "If he traded 4 wool instead of 4 ore, he would get only 1 card in return"; and
    the special harbor gives no 3:1 for other resources."""
    game = trader(ORE_HARBOR, wool=4)
    game.apply(MaritimeTrade(WOOL, BRICK))
    assert hand_of(game, 0) == bag(brick=1)
    assert not any(isinstance(a, MaritimeTrade) for a in game.legal_actions())
    game = trader(ORE_HARBOR, wool=3)
    with pytest.raises(IllegalActionError, match="needs 4 wool"):
        game.apply(MaritimeTrade(WOOL, BRICK))


def test_maritime_no_like_for_like() -> None:
    """No trading matching resources ("trade" 2 ore for 1 ore)."""
    game = trader(ORE_HARBOR, ore=4)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="like-for-like"):
        game.apply(MaritimeTrade(ORE, ORE))
    assert snapshot(game) == before


def test_maritime_needs_the_card_in_the_supply() -> None:
    """The bank must hold the card asked for."""
    game = trader(INLAND, ore=4)
    set_bank(game, lumber=0)
    with pytest.raises(IllegalActionError, match="no lumber left"):
        game.apply(MaritimeTrade(ORE, LUMBER))


def test_no_trade_before_rolling() -> None:
    """Trading is the phase after the production roll."""
    game = trader(GENERIC_HARBOR, lumber=3, ore=1)
    game.state.phase = Phase.ROLL
    game.state.rolled = False
    with pytest.raises(IllegalActionError, match="not allowed in phase roll"):
        game.apply(MaritimeTrade(LUMBER, WOOL))
    with pytest.raises(IllegalActionError, match="not allowed in phase roll"):
        game.apply(ProposeTrade(bag(ore=1), bag(brick=1)))


def test_harbor_usable_in_the_turn_it_is_settled() -> None:
    """Combined trade/build: "You can even use a harbor on the same turn you build a
    settlement there"."""
    game = new_game(seat=0)
    start = node_at(MOUNTAINS_10, PASTURE_2, HILLS_6)
    put_settlement(game, 0, start)
    harbor_side = corner(MOUNTAINS_10, "NE")
    put_road_through(game, 0, start, harbor_side, GENERIC_HARBOR)
    set_hand(game, 0, brick=1, lumber=1, wool=1, grain=1, ore=3)
    game.apply(BuildSettlement(GENERIC_HARBOR))
    game.apply(MaritimeTrade(ORE, BRICK))
    assert hand_of(game, 0) == bag(brick=1)


# --- domestic trade -------------------------------------------------------------------

PETE, BETH, COOPER, DANA = 0, 1, 2, 3


def pete_position() -> Game:
    """Pete (on turn, rolled) has 2 lumber and 3 ore and a settlement; Beth and Cooper
    each hold a brick; Dana holds a wool."""
    game = new_game(seat=PETE)
    put_settlement(game, PETE, INLAND)
    set_hand(game, PETE, lumber=2, ore=3)
    set_hand(game, BETH, brick=1)
    set_hand(game, COOPER, brick=1)
    set_hand(game, DANA, wool=1)
    return game


def test_pete_beth_cooper_example() -> None:
    """Pete asks for 1 brick for 1 ore; Beth wants 3 ore; Cooper wants 1 lumber and
    1 ore; Pete accepts Cooper's offer: a lumber and an ore for a brick."""
    game = pete_position()
    game.apply(ProposeTrade(bag(ore=1), bag(brick=1)))
    assert game.phase is Phase.TRADE_RESPONSE and game.decider == BETH
    game.apply(CounterTrade(bag(brick=1), bag(ore=3)))
    assert game.decider == COOPER
    game.apply(CounterTrade(bag(brick=1), bag(lumber=1, ore=1)))
    assert game.decider == DANA
    assert game.legal_actions() == [RejectTrade()]
    game.apply(RejectTrade())
    assert game.phase is Phase.TRADE_CONFIRM and game.decider == PETE
    assert game.legal_actions() == [ConfirmTrade(BETH), ConfirmTrade(COOPER), CancelTrade()]
    with pytest.raises(IllegalActionError, match="did not accept"):
        game.apply(ConfirmTrade(DANA))
    game.apply(ConfirmTrade(COOPER))
    assert hand_of(game, PETE) == bag(brick=1, lumber=1, ore=2)
    assert hand_of(game, COOPER) == bag(lumber=1, ore=1)
    assert hand_of(game, BETH) == bag(brick=1)
    assert hand_of(game, DANA) == bag(wool=1)
    assert game.state.bank == [17, 17, 18, 19, 16]
    assert game.phase is Phase.MAIN and game.decider == PETE
    # "He needs one brick to build a road": now he can.
    assert any(isinstance(a, BuildRoad) for a in game.legal_actions())


def test_plain_acceptance() -> None:
    """Beth accepts the offer as made: 1 ore for her brick."""
    game = pete_position()
    game.apply(ProposeTrade(bag(ore=1), bag(brick=1)))
    game.apply(AcceptTrade())
    game.apply(RejectTrade())
    game.apply(RejectTrade())
    game.apply(ConfirmTrade(BETH))
    assert hand_of(game, PETE) == bag(brick=1, lumber=2, ore=2)
    assert hand_of(game, BETH) == bag(ore=1)
    assert hand_of(game, COOPER) == bag(brick=1)


def test_cannot_accept_without_the_cards() -> None:
    """Dana holds no brick, so she can only decline."""
    game = pete_position()
    game.apply(ProposeTrade(bag(ore=1), bag(brick=1)))
    game.apply(RejectTrade())
    game.apply(RejectTrade())
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="cannot accept"):
        game.apply(AcceptTrade())
    with pytest.raises(IllegalActionError, match="do not hold"):
        game.apply(CounterTrade(bag(brick=1), bag(ore=1)))
    assert snapshot(game) == before
    game.apply(RejectTrade())
    assert game.phase is Phase.MAIN and game.state.offer is None


@pytest.mark.parametrize(
    ("give", "get", "rule"),
    [
        (bag(ore=1), bag(), "no gifts"),
        (bag(), bag(brick=1), "no gifts"),
        (bag(ore=3), bag(ore=1), "like-for-like"),
        (bag(ore=1, lumber=1), bag(ore=1, brick=1), "like-for-like"),
        (bag(wool=1), bag(brick=1), "do not hold"),
    ],
)
def test_illegal_offers(give: tuple[int, ...], get: tuple[int, ...], rule: str) -> None:
    """Rulebook: "You cannot give away cards, or trade matching resources"."""
    game = pete_position()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=rule):
        game.apply(ProposeTrade(give, get))  # type: ignore[arg-type]
    assert snapshot(game) == before


def test_counter_offers_follow_the_same_rules() -> None:
    """A counter-offer that is a gift or like-for-like is refused."""
    game = pete_position()
    game.apply(ProposeTrade(bag(ore=1), bag(brick=1)))
    with pytest.raises(IllegalActionError, match="no gifts"):
        game.apply(CounterTrade(bag(brick=1), bag()))
    with pytest.raises(IllegalActionError, match="like-for-like"):
        game.apply(CounterTrade(bag(brick=1), bag(brick=1)))


def test_offers_per_turn_are_capped() -> None:
    """The engine's configured cap (3 offers a turn) keeps games finite."""
    game = pete_position()
    for _ in range(3):
        game.apply(ProposeTrade(bag(ore=1), bag(brick=1)))
        for _ in range(3):
            game.apply(RejectTrade())
        assert game.phase is Phase.MAIN
    assert game.state.offers_made == 3
    assert not any(isinstance(a, ProposeTrade) for a in game.legal_actions())
    with pytest.raises(IllegalActionError, match="at most 3 trade offers"):
        game.apply(ProposeTrade(bag(ore=2), bag(brick=1)))


def test_other_players_never_trade_among_themselves() -> None:
    """Rulebook: "While it is your turn, you must be a part of all trades, and the other players
    may not trade among themselves": a responder cannot make an offer of their own, and
    a confirmed trade moves cards only between Pete and the chosen responder."""
    game = pete_position()
    game.apply(ProposeTrade(bag(ore=1), bag(brick=1)))
    assert game.decider == BETH
    assert all(
        isinstance(a, (AcceptTrade, RejectTrade, CounterTrade)) for a in game.legal_actions()
    )
    with pytest.raises(IllegalActionError, match="not allowed in phase trade_response"):
        game.apply(ProposeTrade(bag(brick=1), bag(wool=1)))
    with pytest.raises(IllegalActionError, match="not allowed in phase trade_response"):
        game.apply(ConfirmTrade(COOPER))
    game.apply(AcceptTrade())
    game.apply(AcceptTrade())
    game.apply(RejectTrade())
    assert game.decider == PETE
    game.apply(ConfirmTrade(COOPER))
    assert hand_of(game, BETH) == bag(brick=1)
    assert hand_of(game, COOPER) == bag(ore=1)
    assert hand_of(game, DANA) == bag(wool=1)
