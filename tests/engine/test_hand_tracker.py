"""Following the opponents' cards through the public history (``engine.hand_tracker``).

Positions are played on the beginner map from the set-up of Illustration N
(``tests.engine.test_rulebook_setup``), so every card comes from a real history: after
the set-up, Alex (0) holds brick, wool and ore, Larry (1) brick and lumber, Will (2)
ore and Quinn (3) lumber and ore.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

import engine.determinize as determinize_module
from engine import Game, Phase, RulesConfig
from engine import actions as A
from engine.determinize import determinize, hand_tracker, known_holdings
from engine.types import Resource
from tests.engine.test_determinize import assert_consistent
from tests.engine.test_rulebook_setup import new_setup, play_setup
from tests.support.positions import HILLS_10, bag

ALEX, LARRY, WILL, QUINN = 0, 1, 2, 3


def after_setup() -> Game:
    game = new_setup()
    play_setup(game)
    return game


def tracked(game: Game, seat: int, seed: int = 0) -> list[list[int]]:
    """The hands ``seat`` infers (one sample)."""
    obs = game.observe(seat)
    rng = random.Random(seed)
    return hand_tracker(obs, rng).sample(obs, known_holdings(obs), rng)


def exact_for(game: Game, seat: int, samples: int = 5) -> bool:
    """Every sample of ``seat``'s inference equals the true hands."""
    return all(tracked(game, seat, k) == game.state.hands for k in range(samples))


def test_the_second_settlements_cards_are_known_to_everyone() -> None:
    """Illustration N: the second settlement's hexes pay one card each, face up."""
    game = after_setup()
    for seat in range(4):
        assert exact_for(game, seat)
    hands = tracked(game, WILL)
    assert hands[ALEX] == list(bag(brick=1, wool=1, ore=1))
    assert hands[LARRY] == list(bag(brick=1, lumber=1))
    assert hands[QUINN] == list(bag(lumber=1, ore=1))


def test_control_uniform_dealing_does_not_know_them() -> None:
    """The same position dealt uniformly (the tracker off) gets the hands wrong often:
    the test above is not passed by chance."""
    game = after_setup()
    obs = game.observe(WILL)
    determinize_module.TRACK_HANDS = False
    try:
        wrong = sum(
            determinize(obs, random.Random(k)).state.hands != game.state.hands for k in range(20)
        )
    finally:
        determinize_module.TRACK_HANDS = True
    assert wrong >= 15


def test_a_roll_pays_what_the_board_says_and_a_trade_moves_known_cards() -> None:
    """A 10: Mountains-10 pays Alex and Will an ore each; Hills-10 pays Larry a brick for
    each of his two settlements. Then Alex trades a wool to Larry for a lumber."""
    game = after_setup()
    game.apply_unchecked(A.RollDice(), forced=[4, 6])
    assert exact_for(game, QUINN)
    assert tracked(game, QUINN)[LARRY] == list(bag(brick=3, lumber=1))
    game.apply(A.ProposeTrade(bag(wool=1), bag(lumber=1)))
    game.apply(A.AcceptTrade())
    game.apply(A.RejectTrade())
    game.apply(A.RejectTrade())
    game.apply(A.ConfirmTrade(LARRY))
    for seat in range(4):
        assert exact_for(game, seat)
    assert tracked(game, QUINN)[ALEX] == list(bag(brick=1, lumber=1, ore=2))


def steal_from_larry(card: Resource) -> Game:
    """Alex rolls a 7 (nobody holds more than seven cards), moves the robber to Hills-10
    and steals ``card`` from Larry (who holds a brick and a lumber)."""
    game = after_setup()
    game.apply_unchecked(A.RollDice(), forced=[3, 4])
    assert game.phase is Phase.MOVE_ROBBER
    game.apply_unchecked(A.MoveRobber(HILLS_10, LARRY), forced=int(card))
    return game


def test_the_thief_and_the_victim_know_the_stolen_card() -> None:
    game = steal_from_larry(Resource.LUMBER)
    assert exact_for(game, ALEX) and exact_for(game, LARRY)
    assert hand_tracker(game.observe(ALEX), random.Random()).hidden_steals == 0


def test_a_steal_between_others_is_drawn_from_the_victims_hand() -> None:
    """Will did not see the card: it was Larry's brick or his lumber, one each half of
    the time, and nothing else; card counts stay exact."""
    game = steal_from_larry(Resource.LUMBER)
    assert hand_tracker(game.observe(WILL), random.Random()).hidden_steals == 1
    kept = Counter()
    for k in range(200):
        hands = tracked(game, WILL, k)
        assert sum(hands[LARRY]) == 1 and sum(hands[ALEX]) == 4
        assert hands[QUINN] == list(bag(lumber=1, ore=1))
        kept[Resource(hands[LARRY].index(1))] += 1
    assert set(kept) == {Resource.BRICK, Resource.LUMBER}
    assert 60 <= kept[Resource.BRICK] <= 140, kept


def test_what_a_seat_sees_does_not_depend_on_a_card_it_did_not_see() -> None:
    """Will's inference is the same whichever card Alex stole: it reads only the masked
    history. Control: Alex's own inference differs."""
    lumber, brick = steal_from_larry(Resource.LUMBER), steal_from_larry(Resource.BRICK)
    assert [tracked(lumber, WILL, k) for k in range(20)] == [
        tracked(brick, WILL, k) for k in range(20)
    ]
    assert tracked(lumber, ALEX) != tracked(brick, ALEX)


def test_a_build_proves_which_card_was_stolen() -> None:
    """Alex held no lumber before the steal; when he then builds a road (a brick and a
    lumber), the stolen card must have been Larry's lumber: Larry keeps his brick in
    every sample, and Alex's wool and ore are all he has left."""
    game = steal_from_larry(Resource.LUMBER)
    road = next(a for a in game.legal_actions() if isinstance(a, A.BuildRoad))
    game.apply(road)
    assert exact_for(game, WILL, samples=40)
    assert tracked(game, WILL)[LARRY] == list(bag(brick=1))
    assert tracked(game, WILL)[ALEX] == list(bag(wool=1, ore=1))


def test_a_history_that_is_not_a_whole_game_falls_back_to_uniform_dealing() -> None:
    """A determinized game's own history starts mid-game: its observations are still
    determinized (uniformly), consistent with what they show."""
    game = steal_from_larry(Resource.BRICK)
    sample = determinize(game.observe(WILL), random.Random(1))
    sample.apply(next(a for a in sample.legal_actions() if isinstance(a, A.EndTurn)))
    obs = sample.observe(LARRY)
    again = determinize(obs, random.Random(2))
    assert_consistent(again, sample, LARRY)


def _random_positions(seeds: range, every: int = 11) -> Iterator[tuple[Game, int]]:
    """Positions of random games (every ``every``-th decision, while they are played),
    with the seat that decides there."""
    for seed in seeds:
        game = Game.new(RulesConfig(), seed)
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            step += 1
            if step % every == 0:
                yield game, game.decider
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.slow
def test_random_games_every_hand_is_exact_until_a_hidden_steal() -> None:
    """In random games (trades, maritime trades, builds, discards, Monopoly, Year of
    Plenty), a seat that saw every stolen card infers every hand exactly; a seat that
    did not still gets most hands right, far more than dealing uniformly does."""
    exact_known = tracked_right = uniform_right = uncertain = 0
    for i, (game, seat) in enumerate(_random_positions(range(12))):
        obs = game.observe(seat)
        truth = game.state.hands
        others = [p for p in range(4) if p != seat]
        if hand_tracker(obs, random.Random(i)).hidden_steals == 0:
            assert tracked(game, seat, i) == truth
            exact_known += 1
            continue
        uncertain += len(others)
        hands = tracked(game, seat, i)
        tracked_right += sum(hands[p] == truth[p] for p in others)
        determinize_module.TRACK_HANDS = False
        try:
            uniform = determinize(obs, random.Random(i)).state.hands
        finally:
            determinize_module.TRACK_HANDS = True
        uniform_right += sum(uniform[p] == truth[p] for p in others)
    assert exact_known > 200 and uncertain > 300, (exact_known, uncertain)
    assert tracked_right > 0.5 * uncertain > 2 * uniform_right, (tracked_right, uniform_right)
