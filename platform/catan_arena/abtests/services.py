"""Writes on A/B tests: request one, and fold each finished pair into its SPRT.

A pair is two games with one seed (board, dice, development deck and steals) and one set
of opponents in the same seats: once with A in the tested seat, once with B. Its
difference is B's placing points minus A's (a table of n gives n - place), so the luck
of the board and the opponents' strength cancel out. The tested seat rotates pair by
pair, and every game starts fresh bot processes. Pairs are kept ``PAIRS_IN_FLIGHT`` at a
time, and only while their games fit in the requester's matches in flight
(:mod:`catan_arena.abtests.fair_use`, which also bounds the tests an author runs at once);
a test asks for at most ``AB_MAX_PAIRS`` pairs, under limits no looser than the
ladder's. When the test stops (a verdict, or ``max_pairs``), its queued games are
voided."""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from catan_arena.abtests.fair_use import admit_ab_test, lock_author, room
from catan_arena.abtests.models import ABPair, ABTest
from catan_arena.accounts.models import User
from catan_arena.core.errors import Conflict, Forbidden, Invalid
from catan_arena.core.limits import AB_PAIRS_DEFAULT, ab_pairs_problem, table_size_problem
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.selectors import ladder_versions, why_not_playable
from catan_arena.matches.models import Match, MatchSeat
from catan_arena.matches.services import MatchLimits, create_match
from catan_arena.ratings.sprt import DEFAULT_RISK, Verdict, sprt
from catan_arena.submissions.models import BotVersion
from catan_arena.submissions.selectors import author_key
from engine import RulesConfig
from engine.rng import new_seed

PAIRS_IN_FLIGHT = 2
DEFAULT_MARGIN = 0.3
"""H1's gain in placing points a game (4 players: 3/2/1/0 for the places)."""


class ABTestError(Invalid):
    """An A/B test cannot be made as asked; the message says why (about its versions)."""

    field: str | None = "versions"


class ABTestNotRunning(Conflict, ABTestError):
    """The test is over: it cannot be cancelled."""

    field = None


def ladder_limits(decision_seconds: float | None = None) -> MatchLimits:
    """The ladder's clock: an A/B test's default, and the loosest it may ask for (with
    ``decision_seconds`` instead of the ladder's, if given: the author's choice)."""
    ladder = LadderSettings.current()
    return MatchLimits(decision_seconds or ladder.decision_seconds, ladder.time_bank_seconds)


def _check_limits(limits: MatchLimits) -> None:
    """Refuse limits looser than the ladder's (a test's games hold workers as long as
    its clock allows)."""
    ladder = ladder_limits()
    if (
        limits.decision_seconds > ladder.decision_seconds
        or limits.time_bank_seconds > ladder.time_bank_seconds
        or limits.per_seat > ladder.per_seat
    ):
        raise ABTestError(
            f"an A/B test's limits are at most the ladder's: {ladder.decision_seconds:g} s "
            f"per decision, a {ladder.time_bank_seconds:g} s bank, {ladder.per_seat:g} s of "
            "wall clock per game"
        )


def request_ab_test(
    user: User,
    version_a: BotVersion,
    version_b: BotVersion,
    *,
    margin: float = DEFAULT_MARGIN,
    alpha: float = DEFAULT_RISK,
    beta: float = DEFAULT_RISK,
    max_pairs: int = AB_PAIRS_DEFAULT,
    table_size: int = 4,
    limits: MatchLimits | None = None,
    opponents: Sequence[BotVersion] = (),
) -> ABTest:
    """Start an A/B test of ``version_b`` against ``version_a`` (their author's, or
    staff's), its first pairs queued. Each pair's opponents are drawn from
    ``opponents`` (active versions of other authors) or, if none are given, from the
    ladder's bots of other authors. ``limits``: the ladder's by default, never looser.
    Raises :class:`~catan_arena.abtests.fair_use.FairUseExceeded` when the author runs their
    limit of tests or has no room in flight for a pair."""
    for version in (version_a, version_b):
        if version.bot.owner_id != user.pk and not user.is_staff:
            raise Forbidden("only the author of both versions can A/B test them")
        refusal = why_not_playable(version)
        if refusal is not None:
            raise ABTestError(refusal)
    if version_a.pk == version_b.pk:
        raise ABTestError("A and B must be different versions")
    if not (margin > 0 and 0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ABTestError("margin > 0 and 0 < alpha, beta < 0.5")
    problem = ab_pairs_problem(max_pairs) or table_size_problem(table_size)
    if problem is not None:
        raise ABTestError(problem)
    _check_opponents(version_a, version_b, opponents)
    if len(_opponent_pool(version_a, version_b, opponents)) < table_size - 1:
        raise ABTestError(f"not enough opponents: {table_size - 1} bots of other authors needed")
    limits = limits or ladder_limits()
    problem = limits.problem()
    if problem is not None:
        raise ABTestError(problem)
    _check_limits(limits)
    with transaction.atomic():
        lock_author(user.pk)  # one request at a time
        admit_ab_test(user)
        test = ABTest.objects.create(
            version_a=version_a,
            version_b=version_b,
            requested_by=user,
            margin=margin,
            alpha=alpha,
            beta=beta,
            max_pairs=max_pairs,
            table_size=table_size,
            decision_seconds=limits.decision_seconds,
            time_bank_seconds=limits.time_bank_seconds,
        )
        state = sprt([], margin=margin, alpha=alpha, beta=beta)
        test.lower, test.upper = state.lower, state.upper
        test.save(update_fields=["lower", "upper"])
        test.opponents.set(opponents)
        _top_up(test)
    return test


def _check_opponents(
    version_a: BotVersion, version_b: BotVersion, opponents: Sequence[BotVersion]
) -> None:
    excluded = {author_key(version_a), author_key(version_b)}
    for version in opponents:
        refusal = why_not_playable(version)
        if refusal is not None:
            raise ABTestError(f"opponent {refusal}")
        if author_key(version) in excluded:
            raise ABTestError(f"opponent {version} is by the author of A or B")


def _opponent_pool(
    version_a: BotVersion, version_b: BotVersion, opponents: Sequence[BotVersion] = ()
) -> list[BotVersion]:
    """One version per author (of ``opponents``, else of the ladder), none of A's or
    B's author or bots."""
    excluded = {author_key(version_a), author_key(version_b)}
    pool: dict[int, BotVersion] = {}
    for version in sorted(opponents or ladder_versions(), key=lambda v: v.pk):
        key = author_key(version)
        if why_not_playable(version) is not None:  # withdrawn since the test began
            continue
        if key not in excluded and version.bot_id not in (version_a.bot_id, version_b.bot_id):
            pool.setdefault(key, version)
    return list(pool.values())


def _top_up(test: ABTest) -> None:
    """Queue pairs until ``PAIRS_IN_FLIGHT`` are unfinished (within ``max_pairs``) and
    while the requester has room (counted under their lock: uploads and other tests'
    pairs wait)."""
    lock_author(test.requested_by_id)
    pairs = test.pair_set.all()
    unfinished = pairs.filter(difference__isnull=True, void=False).count()
    made = pairs.count()
    counted = test.pairs
    chosen = list(test.opponents.select_related("bot__owner"))
    pool = _opponent_pool(test.version_a, test.version_b, chosen)
    rng = random.Random()
    while unfinished < PAIRS_IN_FLIGHT and counted + unfinished < test.max_pairs:
        if len(pool) < test.table_size - 1 or made >= 2 * test.max_pairs:
            return
        if room(test.requested_by) < 2:  # the requester's matches in flight are full
            return
        opponents = rng.sample(pool, test.table_size - 1)
        _queue_pair(test, made + 1, opponents)
        made += 1
        unfinished += 1


def _queue_pair(test: ABTest, number: int, opponents: Sequence[BotVersion]) -> ABPair:
    seat = (number - 1) % test.table_size
    seed = new_seed()
    limits = MatchLimits(test.decision_seconds, test.time_bank_seconds)
    rules = RulesConfig(players=test.table_size)
    games = []
    for tested in (test.version_a, test.version_b):
        seats = list(opponents)
        seats.insert(seat, tested)
        games.append(create_match(seats, rules=rules, limits=limits, seed=seed, ab_test_id=test.pk))
    return ABPair.objects.create(
        test=test, number=number, seat=seat, match_a=games[0], match_b=games[1]
    )


def _placing_points(match: Match, seat: int) -> float:
    place = (
        MatchSeat.objects.filter(match=match, seat=seat).values_list("placing", flat=True).first()
    )
    return float(match.players - (place or match.players))


def note_ab_match_done(test_id: int) -> None:
    """Called when one of its games is done (inside that transaction): counts the pairs
    now complete, updates the SPRT, and stops the test or queues more pairs."""
    with transaction.atomic():
        test = ABTest.objects.select_for_update().filter(pk=test_id).first()
        if test is None or test.status != ABTest.Status.RUNNING:
            return
        pending = test.pair_set.filter(difference__isnull=True, void=False).select_related(
            "match_a", "match_b"
        )
        for pair in pending:
            a, b = pair.match_a, pair.match_b
            if a.status not in Match.DONE or b.status not in Match.DONE:
                continue
            if a.status == b.status == Match.Status.FINISHED:
                pair.difference = _placing_points(b, pair.seat) - _placing_points(a, pair.seat)
            else:
                pair.void = True  # a platform fault cost one of its games: not counted
            pair.save(update_fields=["difference", "void"])
        differences = [
            float(d)
            for d in test.pair_set.filter(difference__isnull=False)
            .order_by("number")
            .values_list("difference", flat=True)
            if d is not None
        ]
        state = sprt(differences, margin=test.margin, alpha=test.alpha, beta=test.beta)
        test.pairs, test.mean, test.llr = state.pairs, state.mean, state.llr
        if state.verdict is Verdict.BETTER:
            _finish(test, ABTest.Verdict.BETTER)
        elif state.verdict is Verdict.NOT_BETTER:
            _finish(test, ABTest.Verdict.NOT_BETTER)
        elif state.pairs >= test.max_pairs:
            _finish(test, ABTest.Verdict.INCONCLUSIVE)
        else:
            test.save(update_fields=["pairs", "mean", "llr"])
            _top_up(test)
        _resume_idle_tests(test.requested_by_id, test.pk)


def _resume_idle_tests(user_id: int, done: int) -> None:
    """Top up the requester's other running tests (a pair may have waited for room): a
    finished game of one test makes room for another."""
    others = ABTest.objects.select_for_update(skip_locked=True).filter(
        requested_by_id=user_id, status=ABTest.Status.RUNNING
    )
    for other in others.exclude(pk=done):
        _top_up(other)


def resume_waiting_ab_tests() -> list[int]:
    """Beat's backstop: running tests with no pair in flight (their pairs waited for room
    in the author's matches in flight, since freed by validations ending) queue their
    next pairs. Returns the ids of the tests that queued any."""
    resumed = []
    waiting = ABTest.objects.filter(status=ABTest.Status.RUNNING).exclude(
        pair_set__difference__isnull=True, pair_set__void=False
    )
    for pk in waiting.values_list("pk", flat=True):
        with transaction.atomic():
            test = ABTest.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if test is None or test.status != ABTest.Status.RUNNING:
                continue
            before = test.pair_set.count()
            _top_up(test)
            if test.pair_set.count() > before:
                resumed.append(pk)
    return resumed


def _finish(test: ABTest, verdict: str, status: str = ABTest.Status.FINISHED) -> None:
    test.verdict = verdict
    test.status = status
    test.finished_at = timezone.now()
    test.save()
    Match.objects.filter(ab_test=test, status=Match.Status.QUEUED).update(
        status=Match.Status.VOID, finished_at=timezone.now()
    )


def cancel_ab_test(user: User, test: ABTest) -> None:
    """Its requester (or staff) stops a running test: queued games are voided."""
    if test.requested_by_id != user.pk and not user.is_staff:
        raise Forbidden("only the test's requester can cancel it")
    with transaction.atomic():
        locked = ABTest.objects.select_for_update().get(pk=test.pk)
        if locked.status != ABTest.Status.RUNNING:
            raise ABTestNotRunning(f"the test is {locked.status}")
        _finish(locked, locked.verdict, ABTest.Status.CANCELLED)
