"""Trade rules: maritime ratios from harbors, and domestic offers."""

from __future__ import annotations

from engine.board.tables import GENERIC_HARBOR
from engine.state import GameState
from engine.types import BANK_PER_RESOURCE, NUM_RESOURCES, Bag


def can_trade_now(s: GameState) -> bool:
    """Trading happens after the roll, in the main phase; with strict sequencing, only
    before the player's first build of the turn."""
    return not (s.config.strict_trade_then_build and s.built)


def claim_harbor(s: GameState, seat: int, node: int) -> None:
    """Improve ``seat``'s maritime ratios after it built a settlement on ``node``."""
    harbor = s.board.node_harbor[node]
    if harbor == -1:
        return
    ratios = s.ratios[seat]
    if harbor == GENERIC_HARBOR:
        for r in range(5):
            ratios[r] = min(ratios[r], 3)
    else:
        ratios[harbor] = 2


def offer_problem(s: GameState, give: Bag, get: Bag, giver: int) -> str | None:
    """Why a domestic offer (``giver`` gives ``give`` for ``get``) is not allowed, or None."""
    if len(give) != 5 or len(get) != 5 or min(give) < 0 or min(get) < 0:
        return "a trade names non-negative counts of the 5 resources"
    if not any(give) or not any(get):
        return "no gifts: both sides of a trade must give at least one card"
    if any(give[r] and get[r] for r in range(5)):
        return "no like-for-like: a resource cannot be on both sides of a trade"
    hand = s.hands[giver]
    if any(hand[r] < give[r] for r in range(5)):
        return "you cannot offer cards you do not hold"
    if sum(get) > BANK_PER_RESOURCE * NUM_RESOURCES:
        return "a trade cannot ask for more cards than exist"
    return None
