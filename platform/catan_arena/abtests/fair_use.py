"""Fair use of the workers, per author, defined once (issue 19).

The limits are settings (``CATAN_ARENA_AUTHOR_*``, ``CATAN_ARENA_AB_MAX_PAIRS``, the
``upload`` rate); they are checked here only, where an author's work is created:

- **uploads**: every upload attempt through either door (the site's form, the API),
  accepted or rejected, counts against the one hourly ``upload`` rate, keyed by the
  account, on the shared cache; and an upload is refused while the author's matches in
  flight are at their limit (its validation would be one more): checked again under a
  lock on the author's row as the version is created (:func:`upload_within_limits`), so
  uploads sent in parallel cannot all pass on one count;
- **matches in flight**: an author's A/B games queued or running plus their versions
  waiting for or in validation, at most ``AUTHOR_MATCHES_IN_FLIGHT`` (the ladder's and
  tournaments' matches are not the author's requests: the matchmaker limits those per
  version);
- **a person's game against the bots** (:mod:`catan_arena.matches.person`, one at a
  time per person) counts as one match in flight (:func:`admit_person_game`);
- **A/B tests**: at most ``AUTHOR_AB_TESTS`` running per author; each pair is queued
  only while its two games fit in flight.

Every count of an author's room is taken under :func:`lock_author` (an upload's, an A/B
request's, a pair's), in the transaction that then uses it: one at a time per author.

A refusal is :class:`FairUseExceeded`: a 429 with its message in the API, the message on
the site's pages.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from catan_arena.accounts.models import User
from catan_arena.core import throttle
from catan_arena.core.errors import RateLimited
from catan_arena.submissions.services import UploadOutcome, upload_version


class FairUseExceeded(RateLimited):
    """An author is at one of their limits; the message says which and what to do."""


def matches_in_flight(user: User) -> int:
    """The author's work queued or running on the workers: A/B games they requested,
    their game against the bots, and their versions waiting for or in validation."""
    from catan_arena.matches.models import Match
    from catan_arena.submissions.models import BotVersion

    games = Match.objects.filter(ab_test__requested_by=user, status__in=Match.IN_FLIGHT).count()
    games += Match.objects.filter(person=user, status__in=Match.IN_FLIGHT).count()
    waiting = BotVersion.IN_VALIDATION
    checks = BotVersion.objects.filter(bot__owner=user, status__in=waiting).count()
    return games + checks


def lock_author(user_id: int) -> None:
    """Hold the author's row until the transaction ends, so their room is counted and
    used by one request at a time (call it inside ``transaction.atomic``)."""
    User.objects.select_for_update().filter(pk=user_id).first()


def room(user: User) -> int:
    """How many more matches (validations included) the author may have in flight."""
    return max(0, settings.AUTHOR_MATCHES_IN_FLIGHT - matches_in_flight(user))


def require_room(user: User, matches: int, doing: str) -> None:
    """Raise :class:`FairUseExceeded` unless ``matches`` more fit in the author's
    limit; ``doing`` names what needed them."""
    if room(user) < matches:
        limit = settings.AUTHOR_MATCHES_IN_FLIGHT
        raise FairUseExceeded(
            f"you have {matches_in_flight(user)} matches in flight (A/B games and "
            f"validations; the limit is {limit} per author): {doing} needs {matches} more. "
            "Try again when some have finished."
        )


def admit_upload(user: User) -> None:
    """Count one upload attempt (before its file is read: rejected ones count too) and
    raise :class:`FairUseExceeded` if it is over the hourly rate or its validation would
    not fit in flight."""
    wait = throttle.hit("upload", f"user:{user.pk}")
    if wait is not None:
        raise FairUseExceeded(
            f"too many uploads: at most {throttle.rate('upload')}, rejected ones "
            f"included; try again in {wait} s",
            retry_after=wait,
        )
    require_room(user, 1, "validating an upload")


def upload_within_limits(
    user: User, bot_name: str, filename: str, data: bytes, **options: Any
) -> UploadOutcome:
    """:func:`~catan_arena.submissions.services.upload_version` for an author's upload
    (the site's form, the API; :func:`admit_upload` counted it first): the room for its
    validation is counted again under a lock on the author's row, in the transaction
    that creates the version, as an A/B test's request is, so parallel uploads queue
    one at a time on the count."""

    def hold_room() -> None:
        lock_author(user.pk)
        require_room(user, 1, "validating an upload")

    return upload_version(user, bot_name, filename, data, admit=hold_room, **options)


def admit_ab_test(user: User) -> None:
    """Raise :class:`FairUseExceeded` if the author already runs their limit of A/B
    tests, or the first pair's two games would not fit in flight."""
    from catan_arena.abtests.models import ABTest

    running = ABTest.objects.filter(requested_by=user, status=ABTest.Status.RUNNING).count()
    if running >= settings.AUTHOR_AB_TESTS:
        raise FairUseExceeded(
            f"you have {running} A/B tests running, the limit per author: wait for one "
            "to finish or cancel one"
        )
    require_room(user, 2, "an A/B test's first pair")


def admit_person_game(user: User) -> None:
    """Raise :class:`FairUseExceeded` unless a game against the bots fits in the
    person's room (call it under :func:`lock_author`, as
    :func:`~catan_arena.matches.person.start_person_game` does with its ``admit``)."""
    require_room(user, 1, "a game against the bots")
