"""The integer action codec: a complete, stable, round-tripping action space."""

from __future__ import annotations

import random

import pytest

from engine import Game, RulesConfig, codec
from engine import actions as A
from engine.actions import Action, CounterTrade, ProposeTrade, parse_action

# Checked-in indices: changing any of these breaks trained policies (bump CODEC_VERSION).
KNOWN = [
    ("roll", 0),
    ("end", 1),
    ("road 0", 2),
    ("road 71", 73),
    ("settle 0", 74),
    ("settle 53", 127),
    ("city 0", 128),
    ("city 53", 181),
    ("buy", 182),
    ("knight", 183),
    ("road-building", 184),
    ("plenty brick brick", 185),
    ("plenty brick lumber", 186),
    ("plenty ore brick", 189),
    ("plenty lumber lumber", 190),
    ("plenty ore ore", 199),
    ("monopoly brick", 200),
    ("monopoly ore", 204),
    ("bank brick lumber", 206),
    ("bank ore grain", 228),
    ("discard wool", 232),
    ("robber 0", 235),
    ("robber 0 0", 236),
    ("robber 9 2", 235 + 63 + 3),
    ("robber 18 5", 367),
    ("offer 1brick for 1lumber", 369),
    ("offer 1ore for 1grain", 391),
    ("accept", 393),
    ("reject", 394),
    ("confirm 0", 395),
    ("confirm 5", 400),
    ("cancel", 401),
]


def test_version_and_size() -> None:
    assert codec.CODEC_VERSION == 1
    assert codec.ACTION_SPACE_SIZE == 402
    assert len(codec.ACTIONS) == len(set(codec.ACTIONS)) == 402


@pytest.mark.parametrize(("text", "index"), KNOWN)
def test_known_indices_are_stable(text: str, index: int) -> None:
    action = parse_action(text)
    assert codec.encode(action) == index
    assert codec.decode(index) == action


def test_round_trip_over_the_whole_space() -> None:
    for i in range(codec.ACTION_SPACE_SIZE):
        action = codec.decode(i)
        assert codec.encode(action) == i
        assert codec.in_space(action)
        # The JSON form round-trips to the same index too.
        assert codec.encode(A.action_from_dict(action.to_dict())) == i


def test_space_covers_every_interned_table_entry() -> None:
    tables: list[Action] = [
        A.ROLL, A.END_TURN, A.BUY_DEV, A.KNIGHT, A.ROAD_BUILDING, A.ACCEPT, A.REJECT, A.CANCEL,
        *A.ROADS, *A.SETTLEMENTS, *A.CITIES, *A.DISCARDS, *A.MONOPOLIES, *A.CONFIRMS,
        *(a for row in A.PLENTY for a in row),
        *(a for row in A.MARITIME for a in row),
        *(a for row in A.ROBBER for a in row),
        *(a for row in A.OFFERS_ONE_FOR_ONE for a in row),
    ]  # fmt: skip
    assert set(tables) == set(codec.ACTIONS)


def test_blocks_are_sorted_and_contiguous() -> None:
    starts = list(codec.BLOCKS.values())
    assert starts == sorted(starts)
    kinds = [a.kind for a in codec.ACTIONS]
    for kind, start in codec.BLOCKS.items():
        assert kinds[start] == kind
        assert start == 0 or kinds[start - 1] != kind
    assert kinds.count("propose_trade") == 25


def test_out_of_space_actions_and_indices() -> None:
    two_for_one = ProposeTrade((2, 0, 0, 0, 0), (0, 1, 0, 0, 0))
    counter = CounterTrade((1, 0, 0, 0, 0), (0, 1, 0, 0, 0))
    for action in (two_for_one, counter):
        assert not codec.in_space(action)
        with pytest.raises(KeyError):
            codec.encode(action)
    # An equal, non-interned one-for-one offer is in the space.
    assert codec.encode(ProposeTrade((0, 0, 0, 0, 1), (0, 0, 0, 1, 0))) == 391
    for bad in (-1, codec.ACTION_SPACE_SIZE, 10_000):
        with pytest.raises(IndexError):
            codec.decode(bad)
    mask = codec.legal_mask([A.ROLL, counter, two_for_one])
    assert len(mask) == codec.ACTION_SPACE_SIZE and sum(mask) == 1 and mask[0]


@pytest.mark.parametrize(
    "config",
    [RulesConfig(), RulesConfig(players=3, friendly_robber=True, max_turns=120)],
    ids=["default", "three-friendly"],
)
def test_masks_from_real_games(config: RulesConfig) -> None:
    rng = random.Random(11)
    kinds: set[str] = set()
    for seed in range(4):
        game = Game.new(config, seed)
        while not game.is_over:
            legal = game.legal_actions()
            mask = codec.legal_mask(legal)
            assert len(mask) == codec.ACTION_SPACE_SIZE
            in_space = {a for a in legal if codec.in_space(a)}
            # The legal list holds only enumerable actions: all of them are in the space.
            assert in_space == set(legal)
            assert {codec.decode(i) for i, m in enumerate(mask) if m} == in_space
            assert codec.legal_indices(legal) == [i for i, m in enumerate(mask) if m]
            # Playing through the index gives the same action.
            index = rng.choice(codec.legal_indices(legal))
            kinds.add(codec.decode(index).kind)
            game.apply(codec.decode(index))
    assert {"build_road", "build_settlement", "roll_dice", "end_turn", "move_robber"} <= kinds
