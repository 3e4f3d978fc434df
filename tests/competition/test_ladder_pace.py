"""The ladder's pace (pure): full speed while a version is under the settled threshold,
then one match per background interval; a newcomer is full speed again at once."""

from __future__ import annotations

from catan_arena.ladder.pace import BACKGROUND, FULL, ladder_pace


def pace(games: list[int], *, free: int = 4, since: float | None = 5.0) -> tuple[str, int]:
    p = ladder_pace(
        games, free_slots=free, settled_games=100, background_interval=60.0, since_last_match=since
    )
    return p.mode, p.tables


def test_full_speed_while_any_version_is_under_the_threshold() -> None:
    assert pace([0, 0, 0]) == (FULL, 4)
    assert pace([150, 120, 99]) == (FULL, 4)  # one short of 100: still full speed
    assert pace([150, 120, 99], free=1) == (FULL, 1)
    assert pace([150, 120, 99], free=-2) == (FULL, 0)  # more in flight than allowed


def test_settled_plays_one_match_per_interval() -> None:
    settled = [100, 140, 300]
    assert pace(settled, since=5.0) == (BACKGROUND, 0)  # a match 5 s ago: wait
    assert pace(settled, since=59.9) == (BACKGROUND, 0)
    assert pace(settled, since=60.0) == (BACKGROUND, 1)  # due: one, not four
    assert pace(settled, since=None) == (BACKGROUND, 1)  # none ever made
    assert pace(settled, free=0, since=600.0) == (BACKGROUND, 0)  # no free slot


def test_a_newcomer_wakes_a_settled_ladder_at_once() -> None:
    assert pace([100, 140, 300, 0], since=1.0) == (FULL, 4)
    waiting = ladder_pace(
        [100, 3, 0], free_slots=2, settled_games=100, background_interval=60, since_last_match=1
    ).waiting
    assert waiting == 2
