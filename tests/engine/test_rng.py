"""The game's chance streams: fixed output bit for bit, independent streams, uniform
draws, cheap clones, and bot seeds that reveal nothing of the game's secret."""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.rng import (
    STREAMS,
    ChanceStream,
    GameChance,
    bot_seed,
    game_secret,
    new_seed,
)


def test_output_is_defined_by_blake2b_in_counter_mode() -> None:
    # Recomputed here from the documented construction, with hashlib (not engine code).
    secret = hashlib.blake2b(b"i:7", digest_size=32, person=b"catan-seed").digest()
    assert game_secret(7) == secret
    key = hashlib.blake2b(b"dice", key=secret, digest_size=32, person=b"catan-stream").digest()
    blocks = b"".join(
        hashlib.blake2b(i.to_bytes(8, "little"), key=key, digest_size=64).digest() for i in range(2)
    )
    expected = [int.from_bytes(blocks[k : k + 8], "little") for k in range(0, 128, 8)]
    stream = GameChance.from_seed(7).dice
    assert [stream.u64() for _ in range(16)] == expected


def test_seeds_of_different_types_and_values_differ() -> None:
    secrets_ = {game_secret(s) for s in (7, "7", 8, "07", "", 0)}
    assert len(secrets_) == 6
    with pytest.raises(TypeError):
        game_secret(True)
    with pytest.raises(TypeError):
        game_secret(b"0123456789abcdef")  # type: ignore[arg-type]


def test_streams_are_independent_of_each_other() -> None:
    chance = GameChance.from_seed("x")
    firsts = [getattr(chance, name).u64() for name in STREAMS]
    assert len(set(firsts)) == len(STREAMS)


def test_clone_is_independent_and_continues_identically() -> None:
    chance = GameChance.from_seed(42)
    chance.dice.below(6)
    twin = chance.clone()
    assert [twin.dice.below(6) for _ in range(50)] == [chance.dice.below(6) for _ in range(50)]
    twin.deck.u64()
    assert twin.deck.u64() != chance.deck.u64()


def test_below_is_uniform_and_in_range() -> None:
    stream = ChanceStream.derive(game_secret(1), "dice")
    counts = [0] * 6
    for _ in range(60_000):
        counts[stream.below(6)] += 1
    assert all(9_400 < c < 10_600 for c in counts), counts
    assert all(0 <= stream.below(n) < n for n in (1, 2, 3, 19, 25, 2**63) for _ in range(20))
    with pytest.raises(ValueError):
        stream.below(0)


def test_shuffle_is_a_permutation_and_every_order_occurs() -> None:
    stream = ChanceStream.derive(game_secret(3), "board")
    seen = set()
    for _ in range(600):
        items = [0, 1, 2]
        stream.shuffle(items)
        seen.add(tuple(items))
    assert len(seen) == 6


def test_bot_seed_is_keyed_per_seat_and_not_the_old_formula() -> None:
    seeds = [bot_seed(7, seat) for seat in range(4)]
    assert len(set(seeds)) == 4
    assert all(0 <= s < 2**64 for s in seeds)
    assert seeds[0] != 7 * 1_000_003  # the old, invertible formula
    # Nothing of the secret in the bot's seed: its generator's output is unrelated to the
    # dice stream's.
    dice = GameChance.from_seed(7).dice
    rng = random.Random(seeds[0])
    assert [rng.randrange(6) for _ in range(40)] != [dice.below(6) for _ in range(40)]


def test_new_seed_has_128_bits_of_entropy() -> None:
    seeds = {new_seed() for _ in range(100)}
    assert len(seeds) == 100
    assert all(len(s) == 32 and int(s, 16) >= 0 for s in seeds)


def test_dice_draw_as_two_below_six() -> None:
    stream, twin = GameChance.from_seed(5).dice, GameChance.from_seed(5).dice
    for _ in range(40):  # several blocks: the refills fall between and inside pairs
        assert stream.dice() == (twin.below(6) + 1, twin.below(6) + 1)
        assert stream.position() == twin.position()
