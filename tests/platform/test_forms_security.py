"""The site's forms against hostile use: every form that changes something needs its
CSRF token; log-in (the limit of every door, see test_login_limit.py) and sign-up are
limited (one answer for any wrong log-in); the sign-up limit lives in the shared cache
when a server configures Redis."""

from __future__ import annotations

import re
from typing import Any

import pytest
import redis
from django.core.cache import cache
from django.test import Client

from catan_arena.accounts.models import User
from catan_arena.submissions.models import BotVersion
from catan_arena.tournaments.models import Tournament
from tests.support.celery_worker import redis_url

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-4521"


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def tight(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        # a day's window: the sign-up limit counts in fixed windows, and a loaded machine's
        # four sign-ups once straddled a minute's end (the count began again)
        "DEFAULT_THROTTLE_RATES": {"upload": "30/hour", "signup": "3/day"},
    }
    settings.AXES_FAILURE_LIMIT = 3


def token_of(client: Client, url: str) -> str:
    found = re.search(
        r'name="csrfmiddlewaretoken" value="([^"]+)"', client.get(url).content.decode()
    )
    assert found is not None, url
    return found.group(1)


@pytest.mark.parametrize(
    ("form", "target", "data"),
    [
        ("/upload/", "/upload/", {"name": "x"}),
        ("/account/tokens/", "/account/tokens/", {"name": "laptop"}),
        ("/tournaments/{cup}/", "/tournaments/{cup}/act/", {"action": "cancel"}),
        ("/", "/log-out/", {}),
    ],
)
def test_every_form_needs_its_csrf_token(
    author: User, form: str, target: str, data: dict[str, str]
) -> None:
    from catan_arena.accounts.roles import ORGANIZERS
    from catan_arena.accounts.services import grant_role

    grant_role(author, ORGANIZERS)
    from catan_arena.tournaments.services import TournamentSpec, create_tournament

    cup = create_tournament(author, TournamentSpec(name="cup"))
    form, target = form.format(cup=cup.pk), target.format(cup=cup.pk)
    client = Client(enforce_csrf_checks=True)
    client.force_login(author)
    assert client.post(target, data).status_code == 403  # forged: no token
    token = token_of(client, form)
    answered = client.post(target, {**data, "csrfmiddlewaretoken": token})
    assert answered.status_code in (200, 302, 400)  # the control: with it, it is heard
    assert Tournament.objects.get(pk=cup.pk).status == ("cancelled" if "act" in target else "draft")


def test_log_in_is_rate_limited_with_one_answer_for_any_wrong_pair(
    client: Client, author: User, tight: None
) -> None:
    wrong_password = client.post("/log-in/", {"username": author.username, "password": "no"})
    no_such_user = client.post("/log-in/", {"username": "nobody-here", "password": "no"})
    assert wrong_password.status_code == no_such_user.status_code == 200
    strip = lambda html: re.sub(r'value="[^"]*"', "", html)  # noqa: E731
    assert strip(wrong_password.content.decode()) == strip(no_such_user.content.decode())
    client.post("/log-in/", {"username": author.username, "password": "no"})
    refused = client.post("/log-in/", {"username": author.username, "password": PASSWORD})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "_auth_user_id" not in client.session  # even the right password waits


def test_sign_up_is_rate_limited(client: Client, tight: None) -> None:
    for i in range(3):
        made = client.post("/sign-up/", {"username": f"new{i}", "password1": PASSWORD,
                                         "password2": PASSWORD})  # fmt: skip
        assert made.status_code == 302
        client.logout()
    refused = client.post("/sign-up/", {"username": "new9", "password1": PASSWORD,
                                        "password2": PASSWORD})  # fmt: skip
    assert refused.status_code == 429 and not User.objects.filter(username="new9").exists()


def test_the_limit_is_shared_through_redis_when_configured(
    client: Client, author: User, tight: None, settings: Any
) -> None:
    url = redis_url()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": url}}  # fmt: skip
    # (Django's setting_changed signal drops the cached cache objects)
    store = redis.Redis.from_url(url)
    store.flushdb()
    sign_up = {"password1": PASSWORD, "password2": PASSWORD}
    try:
        client.post("/sign-up/", {"username": "new0", **sign_up})
        keys = [k.decode() for k in store.keys("*throttle:signup:*")]
        assert len(keys) == 1  # where every web process counts
        other = Client()  # another process would count on from there
        for i in (1, 2):
            other.post("/sign-up/", {"username": f"new{i}", **sign_up})
        assert other.post("/sign-up/", {"username": "new3", **sign_up}).status_code == 429
    finally:
        store.flushdb()


def test_uploads_need_an_account(client: Client) -> None:
    assert client.post("/upload/", {"name": "x"}).status_code == 302
    assert not BotVersion.objects.exists()
