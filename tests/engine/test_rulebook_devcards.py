"""Development cards (Almanac: Development Cards, Knight Cards, Progress Cards,
Illustration H)."""

from __future__ import annotations

import pytest

from engine import Game, IllegalActionError, Phase, Resource
from engine.actions import (
    BuildRoad,
    BuyDevCard,
    EndTurn,
    MoveRobber,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RollDice,
)
from engine.types import DevCard
from tests.support.positions import (
    DESERT,
    FIELDS_12,
    FOREST_9,
    HILLS_6,
    MOUNTAINS_10,
    PASTURE_2,
    PASTURE_4,
    PASTURE_11,
    bag,
    corner,
    edge_between,
    hand_of,
    move_robber,
    new_game,
    node_at,
    put_settlement,
    set_devs,
    set_hand,
    side,
    snapshot,
)

BRICK, LUMBER, WOOL, GRAIN, ORE = tuple(Resource)
HOME = node_at(MOUNTAINS_10, PASTURE_2, HILLS_6)


def player_with_cards(phase: Phase = Phase.MAIN, **cards: int) -> Game:
    """Seat 0 on turn with a settlement where Mountains-10, Pasture-2 and Hills-6 meet and
    development cards bought on earlier turns."""
    game = new_game(seat=0, phase=phase)
    put_settlement(game, 0, HOME)
    set_devs(game, 0, **cards)
    return game


def finish_round(game: Game) -> None:
    """End seat 0's turn; seats 1-3 each roll a 3 (nobody produces) and end theirs."""
    game.apply(EndTurn())
    while game.current_seat != 0:
        game.apply_unchecked(RollDice(), forced=[1, 2])
        game.apply(EndTurn())
    assert game.phase is Phase.ROLL


def test_card_bought_this_turn_cannot_be_played() -> None:
    """Rulebook: "You may not, however, play a card that you bought during the same turn"; next
    turn it is playable (even before rolling)."""
    game = player_with_cards()
    set_hand(game, 0, wool=1, grain=1, ore=1)
    card = game.apply_unchecked(BuyDevCard(), forced=int(DevCard.KNIGHT))
    assert card == DevCard.KNIGHT
    assert game.state.devs[0] == [1, 0, 0, 0, 0]
    assert PlayKnight() not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="turn it was bought"):
        game.apply(PlayKnight())
    assert snapshot(game) == before
    finish_round(game)
    assert PlayKnight() in game.legal_actions()
    game.apply(PlayKnight())
    assert game.state.knights[0] == 1


def test_older_card_of_the_same_kind_is_playable() -> None:
    """A knight from an earlier turn may be played although another was just bought."""
    game = player_with_cards(knight=1)
    set_hand(game, 0, wool=1, grain=1, ore=1)
    game.apply_unchecked(BuyDevCard(), forced=int(DevCard.KNIGHT))
    assert game.state.devs[0][DevCard.KNIGHT] == 2
    game.apply(PlayKnight())
    assert game.state.devs[0][DevCard.KNIGHT] == 1


def test_bought_card_is_seen_only_by_the_buyer() -> None:
    """Rulebook: "Keep your development cards hidden until you play them"."""
    game = player_with_cards()
    set_hand(game, 0, wool=1, grain=1, ore=1)
    game.apply_unchecked(BuyDevCard(), forced=int(DevCard.MONOPOLY))
    assert game.observe(0).history[-1][2] == DevCard.MONOPOLY
    assert game.observe(1).history[-1][2] is None
    assert game.observe(1).dev_counts == (1, 0, 0, 0)
    assert game.observe(1).dev_cards == (0, 0, 0, 0, 0)
    assert game.state.deck == [14, 2, 2, 1, 5]


def test_only_one_development_card_per_turn() -> None:
    """Seat 0 plays a knight before rolling; after the roll a monopoly is refused."""
    game = player_with_cards(Phase.ROLL, knight=1, monopoly=1)
    game.apply(PlayKnight())
    game.apply(MoveRobber(FOREST_9, None))
    game.apply_unchecked(RollDice(), forced=[1, 2])
    assert game.phase is Phase.MAIN
    assert not any(isinstance(a, PlayMonopoly) for a in game.legal_actions())
    with pytest.raises(IllegalActionError, match="only one development card"):
        game.apply(PlayMonopoly(WOOL))


def test_knight_before_rolling_then_roll() -> None:
    """Rulebook: "You can play the card at any time, even before you roll the dice": after moving
    the robber the player still has to roll."""
    game = player_with_cards(Phase.ROLL, knight=1)
    assert PlayKnight() in game.legal_actions()
    game.apply(PlayKnight())
    assert game.phase is Phase.MOVE_ROBBER
    game.apply(MoveRobber(FOREST_9, None))
    assert game.phase is Phase.ROLL and not game.state.rolled
    assert game.legal_actions() == [RollDice()]
    assert game.state.robber == FOREST_9


def test_illustration_h_niall_plays_a_knight() -> None:
    """Niall moves the robber from a fields hex to a hills hex and may rob player A or
    B, both of whom have settlements on it."""
    niall, a, b = 0, 1, 2
    game = player_with_cards(Phase.MAIN, knight=1)
    move_robber(game, FIELDS_12)
    put_settlement(game, a, corner(HILLS_6, "SE"))
    put_settlement(game, b, corner(HILLS_6, "SW"))
    set_hand(game, a, grain=1)
    set_hand(game, b, brick=2)
    game.apply(PlayKnight())
    legal = game.legal_actions()
    on_hills = [act for act in legal if isinstance(act, MoveRobber) and act.hex == HILLS_6]
    assert on_hills == [MoveRobber(HILLS_6, a), MoveRobber(HILLS_6, b)]
    stolen = game.apply_unchecked(MoveRobber(HILLS_6, b), forced=int(BRICK))
    assert stolen == BRICK
    assert hand_of(game, niall) == bag(brick=1)
    assert hand_of(game, b) == bag(brick=1)
    assert game.state.robber == HILLS_6
    assert game.state.knights[niall] == 1
    assert game.phase is Phase.MAIN


def test_knight_must_move_the_robber_away() -> None:
    game = player_with_cards(Phase.ROLL, knight=1)
    game.apply(PlayKnight())
    with pytest.raises(IllegalActionError, match="different hex"):
        game.apply(MoveRobber(DESERT, None))


def test_no_buying_from_an_empty_deck() -> None:
    """Rulebook: "If all of the cards in the deck are purchased, no player may buy any more"."""
    game = player_with_cards()
    set_hand(game, 0, wool=1, grain=1, ore=1)
    game.state.deck = [0, 0, 0, 0, 0]
    assert BuyDevCard() not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="deck is empty"):
        game.apply(BuyDevCard())
    assert snapshot(game) == before


# Two roads east from HOME over the Pasture-2 / Hills-6 / Pasture-4 corner.
MIDDLE = node_at(PASTURE_2, HILLS_6, PASTURE_4)
ROAD_1 = edge_between(HOME, MIDDLE)
ROAD_2 = edge_between(MIDDLE, node_at(PASTURE_2, FOREST_9, PASTURE_4))


def test_road_building_places_two_free_roads() -> None:
    """Road Building: "place 2 free roads" under the normal building rules."""
    game = player_with_cards(road_building=1)
    game.apply(PlayRoadBuilding())
    assert game.phase is Phase.ROAD_BUILDING
    far_away = side(PASTURE_11, "SE")
    with pytest.raises(IllegalActionError, match="must connect"):
        game.apply(BuildRoad(far_away))
    game.apply(BuildRoad(ROAD_1))
    assert game.phase is Phase.ROAD_BUILDING
    game.apply(BuildRoad(ROAD_2))
    s = game.state
    assert game.phase is Phase.MAIN
    assert s.roads_left[0] == 13
    assert s.edge_owner[ROAD_1] == s.edge_owner[ROAD_2] == 0
    assert hand_of(game, 0) == bag()
    assert s.bank == [19] * 5
    assert s.devs[0] == [0, 0, 0, 0, 0]


def test_road_building_before_rolling_returns_to_the_roll() -> None:
    game = player_with_cards(Phase.ROLL, road_building=1)
    game.apply(PlayRoadBuilding())
    game.apply(BuildRoad(ROAD_1))
    game.apply(BuildRoad(ROAD_2))
    assert game.phase is Phase.ROLL and game.legal_actions() == [RollDice()]


@pytest.mark.parametrize(("first", "second"), [(BRICK, LUMBER), (ORE, ORE)])
def test_year_of_plenty_takes_two(first: Resource, second: Resource) -> None:
    """Year of Plenty: "take any 2 resources from the bank"; 2 of the same is allowed."""
    game = player_with_cards(year_of_plenty=1)
    game.apply(PlayYearOfPlenty(first, second))
    expected = [0] * 5
    expected[first] += 1
    expected[second] += 1
    assert game.state.hands[0] == expected
    assert game.state.bank == [19 - n for n in expected]


def test_year_of_plenty_order_of_the_two_resources_does_not_matter() -> None:
    """Year of Plenty: "take any 2 resources". Naming ore then brick is the same choice
    as brick then ore (the JSON form is a list of two names, in any order)."""
    game = player_with_cards(year_of_plenty=1)
    game.apply(PlayYearOfPlenty(ORE, BRICK))
    assert hand_of(game, 0) == bag(brick=1, ore=1)
    assert game.state.bank == [18, 19, 19, 19, 18]


def test_year_of_plenty_cards_can_be_used_to_build_the_same_turn() -> None:
    game = player_with_cards(year_of_plenty=1)
    game.apply(PlayYearOfPlenty(BRICK, LUMBER))
    game.apply(BuildRoad(ROAD_1))
    assert game.state.edge_owner[ROAD_1] == 0
    assert hand_of(game, 0) == bag()


def test_monopoly_takes_all_of_one_resource_from_all_others() -> None:
    """Monopoly: all other players give all their wool; a player without wool gives
    nothing; other resources stay."""
    game = player_with_cards(monopoly=1)
    set_hand(game, 0, wool=1, ore=1)
    set_hand(game, 1, wool=3, brick=2)
    set_hand(game, 2, grain=4)
    set_hand(game, 3, wool=2, ore=1)
    game.apply(PlayMonopoly(WOOL))
    assert hand_of(game, 0) == bag(wool=6, ore=1)
    assert hand_of(game, 1) == bag(brick=2)
    assert hand_of(game, 2) == bag(grain=4)
    assert hand_of(game, 3) == bag(ore=1)
    assert game.state.bank == [17, 19, 13, 15, 17]
