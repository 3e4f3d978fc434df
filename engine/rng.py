"""The game's chance: keyed BLAKE2b streams that no player can predict.

A game has one *secret* (32 bytes). Every random outcome comes from one of four
independent streams derived from it — the board, the dice, the development deck and the
steals — each BLAKE2b in counter mode under its own key::

    stream key  = BLAKE2b-256(label, key=secret, person="catan-stream")
    block i     = BLAKE2b-512(i as 8 little-endian bytes, key=stream key)

Knowing every past output of a stream (the dice rolled so far, the board) tells nothing
about its future without the secret, and one stream says nothing about another. Bots get
their own generator's seed through a separate keyed derivation (:func:`bot_seed`); the
secret never enters a bot process.

Everything that turns stream bytes into outcomes is defined here (uniform integers by
rejection, Fisher–Yates shuffles), never by ``random`` or another library whose
algorithm could change, so a replay reproduces bit for bit on any machine and Python.

A game is created from a seed, an ``int`` or a ``str`` that :func:`game_secret` hashes.
The platform draws 128-bit seeds with :func:`new_seed`; ``--seed 7`` reproduces a local
game, but such a small seed is guessable (a bot could try small seeds against the board
it sees), so a run meant to be fair against unknown bots uses :func:`new_seed`.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from struct import Struct

from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

try:  # the C module itself: ``hashlib`` would also load OpenSSL (~4 ms of bot start-up)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - CPython always builds _blake2
    from hashlib import blake2b

SECRET_BYTES = 32
SEED_BITS = 128
_SEED_PERSON = b"catan-seed"
_STREAM_PERSON = b"catan-stream"
_BOT_PERSON = b"catan-bot-rng"
_BLOCK = 64
_WORDS = _BLOCK // 8
_UNPACK_BLOCK = Struct(f"<{_WORDS}Q").unpack
"""A block as its eight 64-bit little-endian words, unpacked in one call."""
_TWO64 = 1 << 64
_DIE_LIMIT = _TWO64 - _TWO64 % 6
STREAMS = ("board", "dice", "deck", "steal")

Seed = int | str
"""What a game is created from: see the module docstring."""


def new_seed() -> str:
    """A fresh unpredictable seed: 128 bits from :mod:`secrets`, as 32 hex digits."""
    import secrets  # host side only: keeps bot processes' start-up lean

    return secrets.token_hex(SEED_BITS // 8)


def game_secret(seed: Seed) -> bytes:
    """The game's 32-byte secret for ``seed``.

    The seed is hashed with its type, so ``7`` and ``"7"`` differ. Raises ``TypeError``
    for anything but an ``int`` or a ``str``.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"a seed is an int or a str, not {type(seed).__name__}")
    if isinstance(seed, int):
        data = b"i:" + str(seed).encode()
    else:
        data = b"s:" + seed.encode("utf-8", "surrogatepass")
    return blake2b(data, digest_size=SECRET_BYTES, person=_SEED_PERSON).digest()


def bot_seed(seed: Seed, seat: int) -> int:
    """The seed of the ``random.Random`` handed to the player in ``seat``: a keyed,
    one-way function of the game's secret (64 bits), the same locally, in the match
    runner and on the platform. It reveals nothing about the game's chance streams."""
    label = b"seat:%d" % seat
    digest = blake2b(label, key=game_secret(seed), digest_size=8, person=_BOT_PERSON)
    return int.from_bytes(digest.digest(), "big")


class ChanceStream:
    """One stream of uniform random numbers: BLAKE2b-512 of a block counter under a key.

    Each block is unpacked once into its eight 64-bit words, drawn in order."""

    __slots__ = ("_block", "_key", "_pos", "_words")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = _WORDS

    @classmethod
    def derive(cls, secret: bytes, label: str) -> ChanceStream:
        """The stream named ``label`` of the game with ``secret``."""
        key = blake2b(label.encode(), key=secret, digest_size=32, person=_STREAM_PERSON)
        return cls(key.digest())

    def _refill(self) -> tuple[int, ...]:
        block = self._block.to_bytes(8, "little")
        words = _UNPACK_BLOCK(blake2b(block, key=self._key, digest_size=_BLOCK).digest())
        self._words = words
        self._block += 1
        return words

    def u64(self) -> int:
        """The next 64 uniformly random bits."""
        pos = self._pos
        if pos == _WORDS:
            self._refill()
            pos = 0
        self._pos = pos + 1
        return self._words[pos]

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling: no modulo bias)."""
        if not 0 < n <= _TWO64:
            raise ValueError(f"below() needs 0 < n <= 2**64, got {n}")
        limit = _TWO64 - _TWO64 % n
        while True:
            value = self.u64()
            if value < limit:
                return value % n

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates, from the last position down)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def dice(self) -> tuple[int, int]:
        """Two dice, 1 to 6: the same draws as ``below(6) + 1`` twice, faster."""
        pos, words = self._pos, self._words
        if pos == _WORDS:
            words, pos = self._refill(), 0
        if pos <= _WORDS - 2:  # both words in this block, and (all but always) accepted
            first, second = words[pos], words[pos + 1]
            if first < _DIE_LIMIT and second < _DIE_LIMIT:
                self._pos = pos + 2
                return (first % 6 + 1, second % 6 + 1)
        faces: list[int] = []
        while len(faces) < 2:
            if pos == _WORDS:
                words, pos = self._refill(), 0
            value = words[pos]
            pos += 1
            if value < _DIE_LIMIT:
                faces.append(value % 6 + 1)
        self._pos = pos
        return (faces[0], faces[1])

    def position(self) -> tuple[bytes, int, int]:
        """(key, block, word): equal for two streams that will draw the same future."""
        return (self._key, self._block, self._pos)

    def clone(self) -> ChanceStream:
        """An independent stream in the same position."""
        twin = ChanceStream.__new__(ChanceStream)
        twin._key, twin._block, twin._words, twin._pos = (
            self._key,
            self._block,
            self._words,
            self._pos,
        )
        return twin


class GameChance:
    """A game's four chance streams (``board``, ``dice``, ``deck``, ``steal``)."""

    __slots__ = STREAMS

    board: ChanceStream
    dice: ChanceStream
    deck: ChanceStream
    steal: ChanceStream

    @classmethod
    def from_seed(cls, seed: Seed) -> GameChance:
        return cls.from_secret(game_secret(seed))

    @classmethod
    def from_secret(cls, secret: bytes) -> GameChance:
        chance = cls.__new__(cls)
        for label in STREAMS:
            setattr(chance, label, ChanceStream.derive(secret, label))
        return chance

    def position(self) -> tuple[tuple[bytes, int, int], ...]:
        """Every stream's :meth:`ChanceStream.position` (for comparing game states)."""
        return (
            self.board.position(),
            self.dice.position(),
            self.deck.position(),
            self.steal.position(),
        )

    def clone(self) -> GameChance:
        """Independent streams in the same positions (game copies for search)."""
        twin = GameChance.__new__(GameChance)
        twin.board = self.board.clone()
        twin.dice = self.dice.clone()
        twin.deck = self.deck.clone()
        twin.steal = self.steal.clone()
        return twin
