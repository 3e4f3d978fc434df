"""What validation is, defined once: ``catan-arena validate`` and the platform's upload
validation both run :func:`arena_runner.validation.validate_bot` under a
:class:`ValidationPolicy` — the same package caps, the same clock (per decision, bank,
the game's wall-clock budget), the same rules, opponents and smoke games. The clock's defaults are
:mod:`arena_runner.clock_limits`'s, as are the platform settings' (a server may override
them; its report then prints its limits).

Plain Python (no Django): the settings, the command line and the workers import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from hashlib import blake2b

from arena_runner.clock_limits import DECISION_SECONDS, TIME_BANK_SECONDS, game_budget
from bots.package import PackageLimits
from engine import RulesConfig
from engine.rng import Seed

UPLOAD_CAPS = PackageLimits(archive_bytes=4 << 20, unpacked_bytes=32 << 20, files=200)
"""An upload's caps: the file (or zip) size, a zip unpacked, its number of entries."""
OPPONENT = "random"
"""The built-in the candidate plays its smoke games against, in every other seat."""
SMOKE_GAMES = 1


@dataclass(frozen=True)
class ValidationPolicy:
    """Everything a validation checks against; the defaults are the platform's."""

    package: PackageLimits = UPLOAD_CAPS
    decision_seconds: float = DECISION_SECONDS
    time_bank_seconds: float = TIME_BANK_SECONDS
    game_seconds: float | None = None
    """Each seat's wall-clock budget for the game (default: the runner's game_budget)."""
    rules: RulesConfig = field(default_factory=RulesConfig)
    opponent: str = OPPONENT
    smoke_games: int = SMOKE_GAMES

    @property
    def game_budget(self) -> float:
        """The candidate's wall-clock budget for each smoke game."""
        if self.game_seconds is not None:
            return self.game_seconds
        return game_budget(self.decision_seconds, self.time_bank_seconds)

    def limits_text(self) -> str:
        """The limits in one line of a report (so an author sees what was applied)."""
        return (
            f"limits: {self.decision_seconds:g} s CPU per decision, {self.time_bank_seconds:g} s "
            f"bank, {self.game_budget:g} s wall clock per game; packages: {caps_text(self.package)}"
        )


def caps_text(caps: PackageLimits) -> str:
    """A package's caps in words, the same wherever they are said (a validation's report,
    the bot guide, the site's guide and upload page): ``4 MiB per upload, 32 MiB
    unpacked, 200 files``."""
    return (
        f"{_size(caps.archive_bytes)} per upload, {_size(caps.unpacked_bytes)} unpacked, "
        f"{caps.files} files"
    )


def smoke_seeds(seed: Seed, games: int) -> list[Seed]:
    """The seeds of the smoke games of one validation: ``seed`` itself, then
    ``seed/1``, ``seed/2``... (the printed seed repeats them all)."""
    return [seed if i == 0 else f"{seed}/{i}" for i in range(games)]


def smoke_seat(seed: Seed, players: int) -> int:
    """The candidate's seat in the smoke game ``seed`` (a fresh seed, a fresh seat)."""
    digest = blake2b(f"{type(seed).__name__}:{seed}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % players


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n % (1 << 20) == 0 else f"{n:,} bytes"
