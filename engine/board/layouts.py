"""Board layouts: which terrain and number token lies on each hex, and each harbor's kind.

A layout is a small immutable value (it goes into every replay). It is either the
"Starting Set-up for Beginners" map or drawn from the game's own ``random.Random``.
"""

from __future__ import annotations

from engine.board.coords import land_hexes, rotate60
from engine.board.topology import standard_topology
from engine.config import BoardSetup
from engine.errors import ConfigError
from engine.rng import ChanceStream
from engine.static_typing import TYPE_CHECKING
from engine.types import Resource, Terrain
from engine.valueclass import value_class

if TYPE_CHECKING:
    from typing import Any, Final

H, F, P, A, M, D = (
    Terrain.HILLS,
    Terrain.FOREST,
    Terrain.PASTURE,
    Terrain.FIELDS,
    Terrain.MOUNTAINS,
    Terrain.DESERT,
)

#: Terrain tiles of the base game (3 hills, 4 forest, 4 pasture, 4 fields, 3 mountains, desert).
TERRAIN_TILES: Final = (H,) * 3 + (F,) * 4 + (P,) * 4 + (A,) * 4 + (M,) * 3 + (D,)
#: Number tokens in letter order A..R (the spiral order of the variable set-up).
SPIRAL_TOKENS: Final = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)
#: Harbor pieces: 4 generic (None) and one 2:1 per resource.
HARBOR_PIECES: Final[tuple[Resource | None, ...]] = (None, None, None, None, *tuple(Resource))

#: The beginner map, row by row (hex index order).
BEGINNER_TERRAINS: Final = (M, P, F, A, H, P, H, A, F, D, F, M, F, M, A, P, H, A, P)
BEGINNER_NUMBERS: Final = (10, 2, 9, 12, 6, 4, 10, 9, 11, 0, 3, 8, 8, 3, 4, 5, 5, 6, 11)
#: Harbor kinds of the beginner map, in ``HARBOR_SITES`` order.
BEGINNER_HARBORS: Final[tuple[Resource | None, ...]] = (
    None,
    Resource.GRAIN,
    Resource.ORE,
    None,
    Resource.WOOL,
    None,
    None,
    Resource.BRICK,
    Resource.LUMBER,
)

#: Hexes (axial) in spiral order starting at the top-left corner, counter-clockwise.
_SPIRAL_FROM_TOP_LEFT: Final = (
    (0, -2), (-1, -1), (-2, 0), (-2, 1), (-2, 2), (-1, 2), (0, 2), (1, 1), (2, 0), (2, -1),
    (2, -2), (1, -2), (0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, 0),
)  # fmt: skip


@value_class
class BoardLayout:
    """Terrain, number token (0 for the desert) and harbor kind per site."""

    terrains: tuple[Terrain, ...]
    numbers: tuple[int, ...]
    harbors: tuple[Resource | None, ...]

    def __post_init__(self) -> None:
        topo = standard_topology()
        if len(self.terrains) != topo.num_hexes or len(self.numbers) != topo.num_hexes:
            raise ConfigError(f"a layout needs {topo.num_hexes} terrains and numbers")
        if sorted(self.terrains) != sorted(TERRAIN_TILES):
            raise ConfigError("terrains must be the 19 base-game tiles")
        for t, n in zip(self.terrains, self.numbers, strict=True):
            if (t is Terrain.DESERT) != (n == 0):
                raise ConfigError("exactly the desert carries no number token")
        if sorted(n for n in self.numbers if n) != sorted(SPIRAL_TOKENS):
            raise ConfigError("numbers must be the 18 base-game tokens")
        if len(self.harbors) != len(HARBOR_PIECES) or sorted(
            self.harbors, key=lambda r: -1 if r is None else int(r)
        ) != list(HARBOR_PIECES):
            raise ConfigError("harbors must be the 9 base-game harbor pieces")

    @property
    def desert(self) -> int:
        return self.terrains.index(Terrain.DESERT)

    def to_dict(self) -> dict[str, Any]:
        return {
            "terrains": [t.label for t in self.terrains],
            "numbers": list(self.numbers),
            "harbors": [None if r is None else r.label for r in self.harbors],
        }

    @classmethod
    def from_dict(cls, data: object) -> BoardLayout:
        if not isinstance(data, dict):
            raise ConfigError("a board layout must be an object")
        try:
            terrains = tuple(Terrain.parse(t) for t in data["terrains"])
            numbers = tuple(int(n) for n in data["numbers"])
            harbors = tuple(None if r is None else Resource.parse(r) for r in data["harbors"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"malformed board layout: {exc}") from None
        return cls(terrains, numbers, harbors)


def beginner_layout() -> BoardLayout:
    """The "Starting Set-up for Beginners" map exactly as printed."""
    return BoardLayout(BEGINNER_TERRAINS, BEGINNER_NUMBERS, BEGINNER_HARBORS)


def variable_layout(rng: ChanceStream, *, random_numbers: bool = False) -> BoardLayout:
    """Shuffled terrain and harbors. Numbers follow the lettered spiral from a random
    corner (skipping the desert), or with ``random_numbers`` are shuffled until no two
    red numbers (6 and 8) touch."""
    terrains = list(TERRAIN_TILES)
    rng.shuffle(terrains)
    harbors = list(HARBOR_PIECES)
    rng.shuffle(harbors)
    if random_numbers:
        numbers = _random_numbers(rng, terrains)
    else:
        numbers = _spiral_numbers(terrains, corner=rng.below(6))
    return BoardLayout(tuple(terrains), tuple(numbers), tuple(harbors))


def make_layout(setup: BoardSetup, rng: ChanceStream) -> BoardLayout:
    if setup is BoardSetup.BEGINNER:
        return beginner_layout()
    return variable_layout(rng, random_numbers=setup is BoardSetup.RANDOM_NUMBERS)


def _spiral_numbers(terrains: list[Terrain], corner: int) -> list[int]:
    index = {cell: i for i, cell in enumerate(land_hexes())}
    numbers = [0] * len(terrains)
    tokens = iter(SPIRAL_TOKENS)
    for cell in _SPIRAL_FROM_TOP_LEFT:
        for _ in range(corner):
            cell = rotate60(cell)
        h = index[cell]
        if terrains[h] is not Terrain.DESERT:
            numbers[h] = next(tokens)
    return numbers


def _random_numbers(rng: ChanceStream, terrains: list[Terrain]) -> list[int]:
    neighbours = standard_topology().hex_neighbours
    tokens = list(SPIRAL_TOKENS)
    while True:
        rng.shuffle(tokens)
        it = iter(tokens)
        numbers = [0 if t is Terrain.DESERT else next(it) for t in terrains]
        if not any(
            numbers[h] in (6, 8) and numbers[g] in (6, 8)
            for h in range(len(numbers))
            for g in neighbours[h]
        ):
            return numbers
