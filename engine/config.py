"""The rules configuration: one frozen value whose defaults are the official base game."""

from __future__ import annotations

from enum import StrEnum

from engine.errors import ConfigError
from engine.static_typing import TYPE_CHECKING
from engine.valueclass import field_names, value_class

if TYPE_CHECKING:
    from typing import Any

PLAYER_COUNTS = (3, 4)
"""The players a base game seats (5-6 need the extension)."""


class BoardSetup(StrEnum):
    """How the board is laid out (see ``engine.board.layouts``)."""

    BEGINNER = "beginner"
    """The "Starting Set-up for Beginners" map exactly as printed."""
    VARIABLE = "variable"
    """Shuffled terrain and harbors; number tokens in the lettered spiral order."""
    RANDOM_NUMBERS = "random_numbers"
    """Shuffled terrain and harbors; number tokens random with no two red (6/8) adjacent."""


@value_class
class RulesConfig:
    """Rule options. The defaults play the official 5th-edition base game."""

    players: int = 4
    vp_to_win: int = 10
    discard_limit: int = 7
    """A player holding more than this many cards discards half (rounded down) on a 7."""
    friendly_robber: bool = False
    """The robber may not go on a hex touching another player with 2 or fewer visible
    points, nor rob such a player; with no hex left it goes to (or stays on) the desert."""
    domestic_trade: bool = True
    max_trade_offers_per_turn: int = 3
    """Domestic trade proposals a player may make in one turn (keeps games finite)."""
    strict_trade_then_build: bool = False
    """Beginner sequencing: once a player builds in a turn, they may not trade any more."""
    max_turns: int = 1000
    """Turn cap: the game is truncated after this many turns and ranked by points."""
    board: BoardSetup = BoardSetup.VARIABLE

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNTS:
            raise ConfigError(
                f"players must be 3 or 4 (5-6 need the extension), not {self.players}"
            )
        if not 3 <= self.vp_to_win <= 20:
            raise ConfigError(f"vp_to_win must be between 3 and 20, not {self.vp_to_win}")
        if not 2 <= self.discard_limit <= 50:
            raise ConfigError(f"discard_limit must be between 2 and 50, not {self.discard_limit}")
        if not 0 <= self.max_trade_offers_per_turn <= 100:
            raise ConfigError("max_trade_offers_per_turn must be between 0 and 100")
        if not 1 <= self.max_turns <= 100_000:
            raise ConfigError("max_turns must be between 1 and 100000")
        if not isinstance(self.board, BoardSetup):
            object.__setattr__(self, "board", BoardSetup(self.board))

    def to_dict(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in field_names(self)}
        data["board"] = self.board.value
        return data

    @classmethod
    def from_dict(cls, data: object) -> RulesConfig:
        """Build from JSON; unknown keys or bad values raise :class:`ConfigError`."""
        if not isinstance(data, dict):
            raise ConfigError("rules configuration must be an object")
        unknown = set(data) - set(field_names(cls))
        if unknown:
            raise ConfigError(f"unknown rules option(s): {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            default = getattr(cls(), key)
            if key == "board":
                try:
                    value = BoardSetup(value)
                except ValueError:
                    raise ConfigError(f"unknown board set-up {value!r}") from None
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ConfigError(f"{key} must be true or false")
            elif isinstance(default, int) and (
                not isinstance(value, int) or isinstance(value, bool)
            ):
                raise ConfigError(f"{key} must be an integer")
            kwargs[key] = value
        return cls(**kwargs)
