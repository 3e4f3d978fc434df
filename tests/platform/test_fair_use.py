"""No author can hog the workers (issue 19): a burst of A/B requests is refused with a
429 and its reason; a test asks for a bounded number of pairs under limits no looser
than the ladder's; its pairs wait for room in the author's matches in flight; upload
attempts through either door, rejected ones included, count against one hourly limit.
Each has a control: another author, or the same request within the limits."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client

from catan_arena.accounts.models import User
from catan_arena.matches.models import Match
from catan_arena.submissions.models import BotVersion
from tests.support.api import API, client_of, error
from tests.support.bots import VALID_BOT
from tests.support.records import active_bots

pytestmark = pytest.mark.django_db
BIG = b"PK\x03\x04" + b"\x00" * 1000  # a zip that is not one: rejected at the check


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    cache.clear()


@pytest.fixture
def opponents() -> None:
    for i in range(3):
        active_bots(User.objects.create_user(f"opp{i}", password="x-4521-y"), 1)


def _ab(author: User, a: BotVersion, b: BotVersion, **extra: Any) -> Any:
    body = {"version_a": a.pk, "version_b": b.pk, "max_pairs": 4, **extra}
    return client_of(author).post(f"{API}/ab-tests/", body, format="json")


def test_a_burst_of_ab_requests_is_refused_with_429(
    author: User, other_author: User, opponents: None
) -> None:
    a, b = active_bots(author, 2)
    made = [_ab(author, a, b) for _ in range(10)]
    codes = [r.status_code for r in made]
    assert codes[:2] == [201, 201] and set(codes[2:]) == {429}, codes
    body = error(made[2], 429)
    assert "2 A/B tests running, the limit per author" in body["message"]
    # the first two hold 2 pairs each at most: 8 games, within the author's matches
    live = Match.objects.filter(status=Match.Status.QUEUED, ab_test__requested_by=author)
    assert live.count() <= 6
    # control: another author is not held back by this one's tests
    c, d = active_bots(other_author, 2)
    assert _ab(other_author, c, d).status_code == 201


def test_pairs_wait_for_room_in_the_authors_matches_in_flight(
    author: User, opponents: None, settings: Any
) -> None:
    settings.AUTHOR_MATCHES_IN_FLIGHT = 3
    a, b = active_bots(author, 2)
    assert _ab(author, a, b).status_code == 201
    assert Match.objects.filter(ab_test__requested_by=author).count() == 2  # one pair
    refused = error(_ab(author, b, a), 429)  # no room for a second test's first pair
    assert "matches in flight" in refused["message"] and "limit is 3" in refused["message"]


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        ({"max_pairs": 2000}, "at most 400 pairs"),
        ({"decision_seconds": 60}, "at most the ladder's: 1 s per decision"),
    ],
)
def test_an_ab_test_is_bounded_by_the_ladders_limits(
    author: User, opponents: None, extra: dict[str, Any], needle: str
) -> None:
    a, b = active_bots(author, 2)
    refused = error(_ab(author, a, b, **extra), 400)
    assert needle in refused["fields"]["versions"][0]
    assert _ab(author, a, b, max_pairs=400, decision_seconds=1.0).status_code == 201  # control


def _form_upload(client: Client, data: bytes, name: str = "busy.zip") -> int:
    file = SimpleUploadedFile(name, data)
    return int(client.post("/upload/", {"name": "busy", "file": file}).status_code)


def test_rejected_form_uploads_count_against_the_apis_hourly_limit(
    author: User, other_author: User, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                   "upload": "5/hour"},
    }  # fmt: skip
    site = Client()
    site.force_login(author)
    codes = [_form_upload(site, BIG) for _ in range(5)]
    assert set(codes) == {400}, codes  # rejected, and counted
    assert _form_upload(site, BIG) == 429
    api = client_of(author).post(
        f"{API}/bots/busy/versions/",
        {"file": SimpleUploadedFile("b.py", VALID_BOT)},
        format="multipart",
    )
    body = error(api, 429)  # the same count, through the other door
    assert "too many uploads" in body["message"] and body["retry_after_seconds"] > 0
    assert BotVersion.objects.filter(bot__owner=author).count() == 0
    # control: another author's upload goes through
    theirs = client_of(other_author).post(
        f"{API}/bots/theirs/versions/",
        {"file": SimpleUploadedFile("b.py", VALID_BOT)},
        format="multipart",
    )
    assert theirs.status_code == 201, theirs.content[:300]


def test_an_upload_waits_for_room_in_flight(author: User, settings: Any) -> None:
    settings.AUTHOR_MATCHES_IN_FLIGHT = 1
    post = client_of(author).post
    first = post(
        f"{API}/bots/one/versions/",
        {"file": SimpleUploadedFile("b.py", VALID_BOT)},
        format="multipart",
    )
    assert first.status_code == 201  # its validation is pending: the author's one
    second = post(
        f"{API}/bots/two/versions/",
        {"file": SimpleUploadedFile("b.py", VALID_BOT)},
        format="multipart",
    )
    assert "validating an upload needs 1 more" in error(second, 429)["message"]


PARALLEL = 8


@pytest.mark.django_db(transaction=True)  # each thread its own connection, as web processes
@pytest.mark.parametrize("door", ["api", "form"])
def test_uploads_sent_at_once_do_not_all_pass_the_room_check(
    door: str, author: User, settings: Any
) -> None:
    """Eight uploads released together against room for 2: two are validated, six are
    429. (Counted once before the upload's checks, all eight passed: twelve uploads at
    once left twelve validations in flight against a limit of 6.)"""
    settings.AUTHOR_MATCHES_IN_FLIGHT = 2
    apis, sites = [client_of(author) for _ in range(PARALLEL)], [Client() for _ in range(PARALLEL)]
    for site in sites:
        site.force_login(author)
    start, codes = threading.Barrier(PARALLEL), []

    def upload(i: int) -> None:
        try:
            file = SimpleUploadedFile("b.py", VALID_BOT + f"\n# {i}\n".encode())
            start.wait()
            if door == "api":
                answer = apis[i].post(
                    f"{API}/bots/b{i}/versions/", {"file": file}, format="multipart"
                )
            else:
                answer = sites[i].post("/upload/", {"name": f"b{i}", "file": file})
            codes.append(answer.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=upload, args=(i,)) for i in range(PARALLEL)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    accepted = 201 if door == "api" else 302
    assert sorted(codes) == [accepted] * 2 + [429] * (PARALLEL - 2), codes
    assert BotVersion.objects.filter(bot__owner=author).count() == 2


def test_a_test_that_waited_for_room_resumes_when_there_is_room(
    author: User, opponents: None, settings: Any
) -> None:
    """Its pairs waited while validations held the author's room; once they end, beat's
    backstop queues them (nothing else would: no game of the test is in flight)."""
    from catan_arena.abtests.models import ABTest
    from catan_arena.abtests.services import resume_waiting_ab_tests

    settings.AUTHOR_MATCHES_IN_FLIGHT = 3
    a, b = active_bots(author, 2)
    assert _ab(author, a, b).status_code == 201
    test = ABTest.objects.get(requested_by=author)
    test.pair_set.all().delete()  # as if its pairs were done and the next one had to wait
    Match.objects.filter(ab_test=test).delete()
    pending = active_bots(author, 2)
    BotVersion.objects.filter(pk__in=[v.pk for v in pending]).update(status="pending")
    assert resume_waiting_ab_tests() == []  # control: still no room (2 validations + 2 > 3)
    BotVersion.objects.filter(pk__in=[v.pk for v in pending]).update(status="active")
    assert resume_waiting_ab_tests() == [test.pk]
    assert test.pair_set.count() == 1 and Match.objects.filter(ab_test=test).count() == 2
    assert resume_waiting_ab_tests() == []  # a pair in flight: nothing more to do here


@pytest.mark.django_db(transaction=True)
def test_a_waiting_pair_and_uploads_at_once_stay_within_the_room(
    author: User, opponents: None, settings: Any
) -> None:
    """A test's next pair queued by beat's backstop while two uploads arrive, all at
    once, against room for 3: the pair (2 games) and one upload, or the two uploads and
    no pair — never 4 in flight. (Before, the pair's room was counted without the
    author's lock, so both uploads and the pair passed on one count.)"""
    from catan_arena.abtests.fair_use import matches_in_flight
    from catan_arena.abtests.models import ABTest
    from catan_arena.abtests.services import resume_waiting_ab_tests

    settings.AUTHOR_MATCHES_IN_FLIGHT = 3
    a, b = active_bots(author, 2)
    assert _ab(author, a, b).status_code == 201
    test = ABTest.objects.get(requested_by=author)
    test.pair_set.all().delete()  # its pairs done; the next one waits for beat
    Match.objects.filter(ab_test=test).delete()
    apis = [client_of(author) for _ in range(2)]
    start, codes = threading.Barrier(3), []

    def upload(i: int) -> None:
        try:
            file = SimpleUploadedFile("b.py", VALID_BOT + f"\n# {i}\n".encode())
            start.wait()
            reply = apis[i].post(f"{API}/bots/w{i}/versions/", {"file": file}, format="multipart")
            codes.append(reply.status_code)
        finally:
            connection.close()

    def resume() -> None:
        try:
            start.wait()
            resume_waiting_ab_tests()
        finally:
            connection.close()

    threads = [threading.Thread(target=upload, args=(i,)) for i in range(2)]
    threads.append(threading.Thread(target=resume))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    games = Match.objects.filter(ab_test=test).count()
    assert matches_in_flight(author) <= 3, (games, codes)
    assert games in (0, 2) and codes.count(201) == 3 - games - (games == 0), (games, codes)
