"""The game's random generator: SplitMix64 behind the ``random.Random`` interface.

Every game draws its board, dice, development cards and steals from one
:class:`GameRandom` seeded with the game's seed. Its whole state is one 64-bit integer,
so copying a game (search bots do it constantly) costs almost nothing, and its output is
defined here, bit for bit, independently of the Python version.
"""

from __future__ import annotations

import random
from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_STATE_VERSION = "splitmix64-1"


def _seed_to_int(seed: object) -> int:
    if isinstance(seed, int) and not isinstance(seed, bool):
        if 0 <= seed <= _MASK:
            return seed
        data = str(seed).encode()
    elif isinstance(seed, str):
        data = seed.encode()
    elif isinstance(seed, (bytes, bytearray)):
        data = bytes(seed)
    else:
        raise TypeError(f"seed must be an int, str or bytes, not {type(seed).__name__}")
    import hashlib  # only for non-integer seeds: keeps bot processes' start-up lean

    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big")


class GameRandom(random.Random):
    """SplitMix64 (Steele, Lea & Flood 2014); ``shuffle``, ``choice``, ``randrange``...
    come from :class:`random.Random` on top of :meth:`random` and :meth:`getrandbits`."""

    _state: int

    def __init__(self, seed: int | str | bytes = 0) -> None:
        super().__init__(seed)

    def seed(self, a: Any = 0, version: int = 2) -> None:
        self._state = _seed_to_int(a)
        self.gauss_next = None

    def _next(self) -> int:
        z = self._state = (self._state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / (1 << 53))

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        bits, value = 0, 0
        while bits < k:
            value = (value << 64) | self._next()
            bits += 64
        return value >> (bits - k)

    def getstate(self) -> tuple[Any, ...]:
        return (_STATE_VERSION, self._state, self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        if not isinstance(state, tuple) or len(state) != 3 or state[0] != _STATE_VERSION:
            raise ValueError("not a GameRandom state")
        self._state, self.gauss_next = state[1], state[2]

    def clone(self) -> GameRandom:
        """An independent generator in the same state."""
        twin = GameRandom.__new__(GameRandom)
        twin._state, twin.gauss_next = self._state, self.gauss_next
        return twin
