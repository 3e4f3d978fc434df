"""The ladder's ratings are a pure function of the ordered history: matches finishing in
any order give the same numbers as in order, and ``recompute_ratings`` reproduces them."""

from __future__ import annotations

import math

import pytest
from django.core.management import call_command

from catan_arena.accounts.models import User
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, create_match, run_match
from catan_arena.ratings.models import Rating, RatingChange
from catan_arena.ratings.selectors import snapshot
from catan_arena.ratings.systems import EloConfig, elo_deltas, openskill_start, openskill_update
from tests.support.records import active_bots

pytestmark = pytest.mark.django_db
FAST = MatchLimits(decision_seconds=0.5, time_bank_seconds=2.0)


def fold_in_order() -> dict[int, tuple[float, float, float, int, int]]:
    """The ratings computed directly from the finished ladder matches in id order."""
    state: dict[int, list[float]] = {}
    matches = Match.objects.filter(ladder=True, status="finished").order_by("id")
    for match in matches:
        seats = list(match.seats.order_by("seat"))
        for seat in seats:
            state.setdefault(seat.version_id, [EloConfig().start, *openskill_start(), 0, 0])
        rows = [state[s.version_id] for s in seats]
        placings = [s.placing or len(seats) for s in seats]
        deltas = elo_deltas([r[0] for r in rows], placings, [int(r[3]) for r in rows])
        skill = openskill_update([(r[1], r[2]) for r in rows], placings)
        for seat, row, delta, (mu, sigma) in zip(seats, rows, deltas, skill, strict=True):
            row[0] += delta
            row[1], row[2] = mu, sigma
            row[3] += 1
            row[4] += int(seat.won)
    return {k: (v[0], v[1], v[2], int(v[3]), int(v[4])) for k, v in state.items()}


def test_out_of_order_finishes_equal_the_in_order_fold_and_the_recompute(
    author: User, other_author: User
) -> None:
    versions = active_bots(author, 3) + active_bots(other_author, 2)
    tables = [versions[0:4], versions[1:5], [*versions[2:5], versions[0]], versions[0:3]]
    matches = [create_match(t, limits=FAST, ladder=True) for t in tables]
    matches.append(create_match(versions[0:4], limits=FAST, ladder=False))  # not the ladder

    for match in reversed(matches[1:]):  # every match but the first finishes first...
        assert run_match(match.pk) == "finished"
    assert not Rating.objects.exists()  # ...and waits for the first, created before them
    assert run_match(matches[0].pk) == "finished"

    stored = snapshot()
    assert set(stored) == {v.pk for v in versions}
    assert stored == fold_in_order()
    assert not RatingChange.objects.filter(match=matches[-1]).exists()
    for match in matches[:-1]:
        changes = RatingChange.objects.filter(match=match)
        assert math.isclose(sum(c.elo_after - c.elo_before for c in changes), 0, abs_tol=1e-9)
        assert all(c.provisional for c in changes)  # first games: provisional K

    history_before = list(RatingChange.objects.order_by("match_id", "version_id").values())
    call_command("recompute_ratings", verbosity=0)
    assert snapshot() == stored  # identical numbers, not merely close
    history_after = list(RatingChange.objects.order_by("match_id", "version_id").values())
    strip = [{k: v for k, v in row.items() if k != "id"} for row in history_before]
    assert [{k: v for k, v in row.items() if k != "id"} for row in history_after] == strip


def test_a_match_still_queued_holds_back_the_later_ones(author: User) -> None:
    versions = active_bots(author, 3)
    first = create_match(versions, limits=FAST, ladder=True)
    second = create_match(versions, limits=FAST, ladder=True)
    assert run_match(second.pk) == "finished"
    second.refresh_from_db()
    assert not second.rating_done and not Rating.objects.exists()
    assert run_match(first.pk) == "finished"
    second.refresh_from_db()
    assert second.rating_done
    assert RatingChange.objects.count() == 6
