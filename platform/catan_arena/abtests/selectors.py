"""Reads on A/B tests: who may see one, the running result in words."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet

from catan_arena.abtests.models import ABTest
from catan_arena.accounts.models import User


def visible_ab_tests(user: User | AnonymousUser) -> QuerySet[ABTest]:
    """The one visibility rule of A/B tests, on the site and in the API: a test is
    its requester's and its versions' authors' (a private experiment; the games it
    plays are ordinary matches), and staff's. Nobody else sees it, anonymous or not."""
    if not user.is_authenticated:
        return ABTest.objects.none()
    if user.is_staff:
        return ABTest.objects.all()
    mine = Q(requested_by=user) | Q(version_a__bot__owner=user) | Q(version_b__bot__owner=user)
    return ABTest.objects.filter(mine)


def visible_ab_test_ids(user: User | AnonymousUser) -> frozenset[int]:
    """The ids of the tests ``user`` may see (:func:`visible_ab_tests`): a match names
    its A/B test, and is found by it, only for them."""
    if not user.is_authenticated:
        return frozenset()
    return frozenset(visible_ab_tests(user).values_list("pk", flat=True))


def describe(test: ABTest) -> str:
    """One line: pairs, mean difference, where the LLR stands between its bounds, and
    the verdict."""
    verdict = test.get_verdict_display() if test.verdict != ABTest.Verdict.PENDING else "running"
    return (
        f"{test.version_b} vs {test.version_a}: {test.pairs} pairs, "
        f"B {test.mean:+.2f} placing points a game; "
        f"LLR {test.llr:+.2f} in ({test.lower:.2f}, {test.upper:.2f}); {verdict}"
        + ("" if test.status != ABTest.Status.CANCELLED else " (cancelled)")
    )


def ab_tests_for(user: User | AnonymousUser) -> QuerySet[ABTest]:
    """The tests ``user`` may see (:func:`visible_ab_tests`), newest first, with their
    requester and versions."""
    return (
        visible_ab_tests(user)
        .select_related("requested_by", "version_a__bot", "version_b__bot")
        .order_by("-id")
    )
