"""Points, the Longest Road and Largest Army cards, and the end of the game."""

from __future__ import annotations

from collections.abc import Iterable

from engine.phases import Phase, Termination
from engine.rules.roads import longest_road
from engine.state import GameState

MIN_LONGEST_ROAD = 5
MIN_LARGEST_ARMY = 3


def update_longest_road(s: GameState, seats: Iterable[int], built: int | None = None) -> None:
    """Recompute the road lengths of ``seats`` and move the Longest Road card. With
    ``built`` (a path the only seat just built a road on), only the piece of its network
    holding that road is searched again.

    The holder keeps the card while no one is strictly longer (a tie keeps it, even after
    a break). If the holder is no longer longest, the card goes to the single longest
    player with 5+ roads, or is set aside when that is a tie or nobody has 5.
    """
    s.public_view = None
    lengths = s.road_len
    for seat in seats:
        if built is None:
            lengths[seat] = longest_road(s, seat)
        else:
            lengths[seat] = max(lengths[seat], longest_road(s, seat, built))
    holder = s.longest_road
    best = max(lengths)
    if holder != -1 and lengths[holder] >= MIN_LONGEST_ROAD and lengths[holder] == best:
        return
    new_holder = -1
    if best >= MIN_LONGEST_ROAD and lengths.count(best) == 1:
        new_holder = lengths.index(best)
    if new_holder != holder:
        if holder != -1:
            s.public_vp[holder] -= 2
        if new_holder != -1:
            s.public_vp[new_holder] += 2
        s.longest_road = new_holder


def update_largest_army(s: GameState, seat: int) -> None:
    """After ``seat`` played a knight: take the card with 3+ knights, strictly more than
    the holder."""
    s.public_view = None
    holder = s.largest_army
    if holder == seat or s.knights[seat] < MIN_LARGEST_ARMY:
        return
    if holder == -1 or s.knights[seat] > s.knights[holder]:
        if holder != -1:
            s.public_vp[holder] -= 2
        s.public_vp[seat] += 2
        s.largest_army = seat


def check_victory(s: GameState) -> bool:
    """End the game if the player on turn has enough points (hidden cards count)."""
    seat = s.current
    if s.turn and s.public_vp[seat] + s.devs[seat][4] >= s.config.vp_to_win:
        s.winner = seat
        s.phase = Phase.GAME_OVER
        s.termination = Termination.VICTORY
        return True
    return False


def placings(s: GameState) -> list[int]:
    """Place (1 = first) of each seat: the winner first, then by total points; equal
    points share a place."""
    totals = [s.total_vp(seat) for seat in range(s.n)]
    keys = [(seat == s.winner, totals[seat]) for seat in range(s.n)]
    return [1 + sum(1 for other in keys if other > keys[seat]) for seat in range(s.n)]
