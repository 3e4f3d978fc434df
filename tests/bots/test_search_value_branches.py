"""Spend or end the turn (``bots/builtin/search_value_branches.py``) and its report
(``benchmarks/value_spending.py``): the off-policy positions are the turn starts after a
turn the policy would have spent in was ended at once, reproducibly; each check holds
the policy's turn and the ended one; the report counts a value's preference the right
way round (a value that rates pieces on the board prefers the policy, one that rates
cards in hand does not)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks.value_spending import tally
from bots.builtin.search_value_branches import SPENDING, branches, spending_checks
from engine import Phase
from engine.state import GameState

ROOT = Path(__file__).resolve().parents[2]
KINDS = {kind.__name__ for kind in SPENDING}


def _placed(s: GameState, seat: int) -> int:
    """Pieces on the board (a city counts twice: it was a settlement) and cards bought."""
    return (
        (15 - s.roads_left[seat])
        + (5 - s.settlements_left[seat])
        + 2 * (4 - s.cities_left[seat])
        + sum(s.devs[seat])
        + s.knights[seat]
    )


def test_branches_are_turn_starts_with_a_winner_reproducibly() -> None:
    found = branches(3, 3_000_003, 3, lambda s: s)
    assert 1 <= len(found) <= 3
    for state, winner in found:
        assert state.phase is Phase.ROLL and 0 <= winner < 4
    again = branches(3, 3_000_003, 3, lambda s: (s.turn, tuple(map(tuple, s.hands))))
    assert again == [((s.turn, tuple(map(tuple, s.hands))), w) for s, w in found]


def test_a_check_holds_the_policys_turn_and_the_turn_ended_at_once() -> None:
    checks = spending_checks(5, 6)
    assert 3 <= len(checks) <= 6
    for check in checks:
        assert check.spent_on in KINDS
        for state in (check.spent, check.ended):
            assert state.phase is Phase.ROLL and state.current == (check.seat + 1) % 4
        assert check.spent.turn == check.ended.turn
        assert _placed(check.spent, check.seat) > _placed(check.ended, check.seat)


def test_the_tally_counts_a_values_preference_the_right_way_round() -> None:
    checks = spending_checks(6, 6)

    def pieces(s: GameState) -> list[float]:
        return [float(_placed(s, p)) for p in range(s.n)]

    def cards(s: GameState) -> list[float]:
        return [float(sum(s.hands[p])) for p in range(s.n)]

    by_pieces, by_cards = tally(checks, pieces), tally(checks, cards)
    assert sum(n for n, _, _ in by_pieces.values()) == len(checks)
    assert all(preferred == n for n, preferred, _ in by_pieces.values())  # always
    assert sum(preferred for _, preferred, _ in by_cards.values()) < len(checks) / 2  # control


def test_the_report_prints_each_value_by_first_move() -> None:
    run = subprocess.run(
        [sys.executable, "benchmarks/value_spending.py", "--games", "1", "--jobs", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    lines = run.stdout.splitlines()
    assert "spending turns of 1 self-play games" in lines[0]
    rows = [line for line in lines[2:] if line.strip()]
    assert rows and all(line.split()[0] in {"linear", "network"} for line in rows)
    assert any(kind in run.stdout for kind in KINDS)
