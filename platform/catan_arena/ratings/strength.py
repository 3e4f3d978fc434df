"""Order-independent strength from a set of finished games, pure (no Django).

Each game is its placings (entry → place, 1 best). :func:`plackett_luce` fits the
Plackett–Luce model by maximum likelihood (``choix.ilsr_rankings``: iterative Luce
spectral ranking, which converges to the ML estimate; lightly regularised so an entry
that always wins stays finite); log-strengths are centred on 0. Equal places are
ordered by a hash of the game's index and the entries (deterministic, and in expectation
favouring nobody). :func:`strength_table` adds bootstrap 95% intervals (games resampled
with replacement) and groups of entries that are statistically tied (a run of entries,
in order of strength, whose intervals overlap the next one's). :func:`head_to_head`
counts, for every pair, the games they shared and who placed ahead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

GameResult = Mapping[int, int]
"""One game: entry id → place (1 = best; equal places tie)."""

REGULARISATION = 0.01
BOOTSTRAP_SAMPLES = 100


@dataclass(frozen=True)
class Strength:
    entry: int
    strength: float
    """Plackett–Luce log-strength, centred on 0 over the entries."""
    low: float
    high: float
    """The bootstrap 95% interval."""
    group: int
    """Entries with the same group number are statistically tied (1 = the top group)."""


def _ranking(index: int, game: GameResult) -> list[int]:
    def key(entry: int) -> tuple[int, bytes]:
        tie_break = hashlib.blake2b(f"{index}:{entry}".encode(), digest_size=8).digest()
        return game[entry], tie_break

    return sorted(game, key=key)


def plackett_luce(entries: Sequence[int], games: Sequence[GameResult]) -> dict[int, float]:
    """Each entry's centred log-strength (0 for all when there are no games)."""
    import choix
    import numpy as np

    position = {entry: i for i, entry in enumerate(entries)}
    rankings = [
        tuple(position[e] for e in _ranking(i, game))
        for i, game in enumerate(games)
        if len(game) > 1
    ]
    if not rankings:
        return dict.fromkeys(entries, 0.0)
    params = np.asarray(choix.ilsr_rankings(len(entries), rankings, alpha=REGULARISATION))
    params = params - params.mean()
    return {entry: float(params[position[entry]]) for entry in entries}


def strength_table(
    entries: Sequence[int],
    games: Sequence[GameResult],
    *,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = 0,
) -> list[Strength]:
    """Entries by fitted strength (best first), with bootstrap intervals and tied groups."""
    import numpy as np

    fit = plackett_luce(entries, games)
    rng = np.random.default_rng(seed)
    draws: dict[int, list[float]] = {entry: [] for entry in entries}
    if games:
        for _ in range(samples):
            picks = rng.integers(0, len(games), size=len(games))
            sample = plackett_luce(entries, [games[int(i)] for i in picks])
            for entry, value in sample.items():
                draws[entry].append(value)
    order = sorted(entries, key=lambda e: (-fit[e], e))
    bounds = {}
    for entry in entries:
        values = draws[entry] or [fit[entry]]
        low, high = np.percentile(values, [2.5, 97.5])
        bounds[entry] = (min(float(low), fit[entry]), max(float(high), fit[entry]))
    table, group = [], 1
    for rank, entry in enumerate(order):
        if rank and bounds[entry][1] < bounds[order[rank - 1]][0]:
            group += 1  # clearly below the one above it: a new group starts
        table.append(Strength(entry, fit[entry], *bounds[entry], group))
    return table


@dataclass(frozen=True)
class HeadToHead:
    games: int
    ahead: int
    """Games the first entry placed ahead of the second."""
    behind: int
    tied: int


def head_to_head(games: Sequence[GameResult]) -> dict[tuple[int, int], HeadToHead]:
    """For every pair (a, b) that shared a game, a's record against b (both orders)."""
    counts: dict[tuple[int, int], list[int]] = {}
    for game in games:
        for a in game:
            for b in game:
                if a == b:
                    continue
                row = counts.setdefault((a, b), [0, 0, 0, 0])
                row[0] += 1
                row[1 if game[a] < game[b] else 2 if game[a] > game[b] else 3] += 1
    return {pair: HeadToHead(*row) for pair, row in counts.items()}
