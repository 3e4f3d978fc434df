"""One log-in limit on every door (the site's form, the API's token exchange, the
admin): django-axes counts failures per account and per real client address in the
shared cache, the address taken behind ``CATAN_ARENA_TRUSTED_PROXIES`` proxies, so a
client-set ``X-Forwarded-For`` never changes the key. Each attack below ends with the
right password: refused (429) while the limit holds. ``test_each_attack_gets_through_
without_the_limit`` is the control: with the limit removed every attack logs in."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.core.cache import cache
from django.test import Client

from catan_arena.accounts.models import ApiToken, User
from catan_arena.core.throttle import client_address
from tests.support.celery_worker import redis_url

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-4521"
LIMIT = 3
PROXY = "10.0.0.2"  # the TLS proxy: every request connects from it


@pytest.fixture(autouse=True)
def _limit(settings: Any) -> None:
    cache.clear()
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.TRUSTED_PROXIES = 0


@pytest.fixture
def ada(db: None) -> User:
    return User.objects.create_user("ada", password=PASSWORD)


def log_in(client: Client, username: str, password: str, **headers: str) -> int:
    """The site's form; 302 is a log-in, 200 a refusal, 429 the limit."""
    data = {"username": username, "password": password}
    return client.post("/log-in/", data, **headers).status_code


def api_log_in(client: Client, username: str, password: str, **headers: str) -> int:
    data = {"username": username, "password": password, "name": "cli"}
    return client.post(
        "/api/v1/auth/token/", data, content_type="application/json", **headers
    ).status_code


# Each attack makes LIMIT wrong tries, then the right password; returns its status.
WRONG = (200, 401, 429)  # a refusal (form, API), or the limit (reached at the LIMIT-th)


def rotating_forwarded_for(ada: User) -> int:
    client = Client(REMOTE_ADDR="203.0.113.9")
    for i in range(LIMIT):
        assert api_log_in(client, "ada", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}") in WRONG
    return api_log_in(client, "ada", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.200")


def rotating_forwarded_for_behind_a_proxy(ada: User) -> int:
    """One trusted proxy appends the real address; the client writes the rest."""
    client = Client(REMOTE_ADDR=PROXY)
    for i in range(LIMIT):
        forwarded = f"192.0.2.{i}, 203.0.113.9"
        assert api_log_in(client, f"user{i}", "wrong", HTTP_X_FORWARDED_FOR=forwarded) in WRONG
    return api_log_in(client, "ada", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99, 203.0.113.9")


def admin_guessing(ada: User) -> int:
    User.objects.filter(pk=ada.pk).update(is_staff=True, is_superuser=True)
    client = Client()
    for _ in range(LIMIT):
        wrong = client.post("/admin/login/", {"username": "ada", "password": "wrong"})
        assert wrong.status_code in WRONG
    return client.post("/admin/login/", {"username": "ada", "password": PASSWORD}).status_code


def one_account_from_many_addresses(ada: User) -> int:
    """Per account: real addresses (behind the trusted proxy) change, the account not;
    every spelling of the name counts for it."""
    client = Client(REMOTE_ADDR=PROXY)
    for i, name in enumerate(["ada", "ADA", "ａｄａ"][:LIMIT]):
        assert log_in(client, name, "wrong", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}") in WRONG
    return log_in(client, "ada", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.77")


ATTACKS: dict[str, Callable[[User], int]] = {
    "rotating X-Forwarded-For": rotating_forwarded_for,
    "rotating X-Forwarded-For behind a proxy": rotating_forwarded_for_behind_a_proxy,
    "the admin": admin_guessing,
    "one account, many addresses": one_account_from_many_addresses,
}


@pytest.mark.parametrize("attack", ATTACKS)
def test_the_right_password_is_refused_once_the_limit_is_reached(
    attack: str, ada: User, settings: Any
) -> None:
    settings.TRUSTED_PROXIES = 1 if "proxy" in attack or "many" in attack else 0
    assert ATTACKS[attack](ada) == 429
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize("attack", ATTACKS)
def test_each_attack_gets_through_without_the_limit(attack: str, ada: User, settings: Any) -> None:
    """The control: the same attacks with the limit removed log in (a token, a session)."""
    settings.AXES_ENABLED = False
    settings.TRUSTED_PROXIES = 1 if "proxy" in attack or "many" in attack else 0
    assert ATTACKS[attack](ada) in (201, 302)


def test_the_api_answers_in_its_error_shape(ada: User) -> None:
    client = Client()
    for _ in range(LIMIT):
        api_log_in(client, "ada", "wrong")
    refused = client.post(
        "/api/v1/auth/token/",
        {"username": "ada", "password": PASSWORD},
        content_type="application/json",
    )
    error = refused.json()["error"]
    assert (refused.status_code, error["status"], error["code"]) == (429, 429, "throttled")
    assert error["retry_after_seconds"] == int(refused["Retry-After"]) == 600


def test_the_site_answers_with_its_page(ada: User) -> None:
    client = Client()
    for _ in range(LIMIT):
        log_in(client, "ada", "wrong")
    refused = client.post("/log-in/", {"username": "ada", "password": PASSWORD})
    assert refused.status_code == 429 and "Too many" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_right_password_works_again_when_the_limit_lifts(ada: User, settings: Any) -> None:
    settings.AXES_COOLOFF_TIME = timedelta(seconds=5)  # a try takes ~1 s on a busy machine
    client = Client()
    for _ in range(LIMIT):
        log_in(client, "ada", "wrong")
    assert log_in(client, "ada", PASSWORD) == 429
    assert log_in(client, "ada", PASSWORD) == 429  # tries while locked do not extend it
    time.sleep(5.5)
    assert log_in(client, "ada", PASSWORD) == 302


@pytest.mark.parametrize("proxies", [1, 0])
def test_two_clients_behind_one_proxy_are_counted_apart(
    proxies: int, ada: User, settings: Any
) -> None:
    """With the proxy trusted, one client's failures do not lock out another behind the
    same proxy; the control (0 proxies: the proxy's address for all) shows they would."""
    settings.TRUSTED_PROXIES = proxies
    User.objects.create_user("grace", password=PASSWORD)
    first, second = Client(REMOTE_ADDR=PROXY), Client(REMOTE_ADDR=PROXY)
    for i in range(LIMIT):  # many accounts guessed from one address
        log_in(first, f"victim{i}", "wrong", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert log_in(first, "ada", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.1") == 429
    heard = log_in(second, "grace", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.2")
    assert heard == (302 if proxies else 429)


@pytest.mark.parametrize(
    ("proxies", "forwarded", "address"),
    [
        (0, "192.0.2.1", "10.0.0.2"),
        (1, "192.0.2.1, 203.0.113.9", "203.0.113.9"),
        (2, "192.0.2.1, 203.0.113.9, 10.0.0.7", "203.0.113.9"),
        (1, "", "10.0.0.2"),  # not through the proxy: the connecting address
        (1, "not-an-address", "10.0.0.2"),
        (2, "203.0.113.9", "10.0.0.2"),  # fewer hops than proxies
    ],
)
def test_the_client_address(proxies: int, forwarded: str, address: str, settings: Any) -> None:
    settings.TRUSTED_PROXIES = proxies
    from django.test import RequestFactory

    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == address


def test_the_counts_are_shared_through_redis(ada: User, settings: Any) -> None:
    """A server's web processes count in one Redis (``CACHE_URL``)."""
    from axes.handlers.proxy import AxesProxyHandler

    url = redis_url()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": url}}  # fmt: skip
    AxesProxyHandler.get_implementation(force=True)  # axes keeps its cache object
    store = redis.Redis.from_url(url)
    try:
        log_in(Client(), "ada", "wrong")
        assert len(store.keys("*axes*")) == 2  # the account's count, the address's count
        for _ in range(LIMIT - 1):
            log_in(Client(), "ada", "wrong")  # another process counts on from there
        assert log_in(Client(), "ada", PASSWORD) == 429
    finally:
        store.flushdb()
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
        AxesProxyHandler.get_implementation(force=True)
