"""Basic vocabulary of the game: resources, terrains, development cards, building costs.

Resources, terrains and development cards are ``IntEnum`` so that they double as list
indices in the hot path; their ``.label`` is the stable lower-case name used in JSON.
"""

from __future__ import annotations

from enum import IntEnum

from engine.static_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Final

NUM_RESOURCES: Final = 5
Bag = tuple[int, ...]
"""A multiset of resources, indexed by ``Resource``."""


class Resource(IntEnum):
    BRICK = 0
    LUMBER = 1
    WOOL = 2
    GRAIN = 3
    ORE = 4

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Resource:
        try:
            return cls[text.upper()]
        except KeyError:
            names = ", ".join(r.label for r in cls)
            raise ValueError(f"unknown resource {text!r} (expected one of {names})") from None


class Terrain(IntEnum):
    """Terrain ``t`` (except the desert) produces ``Resource(t)``."""

    HILLS = 0
    FOREST = 1
    PASTURE = 2
    FIELDS = 3
    MOUNTAINS = 4
    DESERT = 5

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def resource(self) -> Resource | None:
        return None if self is Terrain.DESERT else Resource(int(self))

    @classmethod
    def parse(cls, text: str) -> Terrain:
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"unknown terrain {text!r}") from None


class DevCard(IntEnum):
    KNIGHT = 0
    ROAD_BUILDING = 1
    YEAR_OF_PLENTY = 2
    MONOPOLY = 3
    VICTORY_POINT = 4

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> DevCard:
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"unknown development card {text!r}") from None


RESOURCES: Final = tuple(Resource)
DEV_CARDS: Final = tuple(DevCard)

#: The 25-card development deck of the base game.
DEV_DECK: Final[Bag] = (14, 2, 2, 2, 5)
#: Cards of each resource in the bank at the start.
BANK_PER_RESOURCE: Final = 19

COST_ROAD: Final[Bag] = (1, 1, 0, 0, 0)
COST_SETTLEMENT: Final[Bag] = (1, 1, 1, 1, 0)
COST_CITY: Final[Bag] = (0, 0, 0, 2, 3)
COST_DEV_CARD: Final[Bag] = (0, 0, 1, 1, 1)

ROADS_PER_PLAYER: Final = 15
SETTLEMENTS_PER_PLAYER: Final = 5
CITIES_PER_PLAYER: Final = 4

SETTLEMENT: Final = 1
CITY: Final = 2


def bag_to_dict(bag: Bag | list[int]) -> dict[str, int]:
    """``(1,0,0,0,2)`` -> ``{"brick": 1, "ore": 2}`` (zeros omitted)."""
    return {RESOURCES[i].label: n for i, n in enumerate(bag) if n}


def bag_from_dict(data: object) -> Bag:
    """Inverse of :func:`bag_to_dict`; raises ``ValueError`` on anything malformed."""
    if not isinstance(data, dict):
        raise ValueError(f"a resource bag must be an object, got {type(data).__name__}")
    counts = [0] * NUM_RESOURCES
    for key, value in data.items():
        if not isinstance(key, str):
            raise ValueError("resource names must be strings")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"count of {key!r} must be a non-negative integer")
        counts[Resource.parse(key)] = value
    return tuple(counts)


def bag_str(bag: Bag | list[int]) -> str:
    """Human notation: ``2ore+1wool``; ``nothing`` for an empty bag."""
    parts = [f"{n}{RESOURCES[i].label}" for i, n in enumerate(bag) if n]
    return "+".join(parts) or "nothing"
