"""The one application error, mapped once per door: the API's JSON shape, the pages'
form error or message, a command's ``CommandError``."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.core.management.base import CommandError
from django.test import RequestFactory

from catan_arena.api.errors import api_exception_handler
from catan_arena.core.commands import AppCommand
from catan_arena.core.errors import AppError, Conflict, Forbidden, Invalid, RateLimited
from catan_arena.core.page_errors import Refusal, message_on_refusal
from catan_arena.submissions.errors import StorageFull, UploadRejected, UploadTooLarge

pytestmark = pytest.mark.django_db


def _api(exc: Exception) -> tuple[int, dict[str, Any], str | None]:
    response = api_exception_handler(exc, {})
    assert response is not None
    return response.status_code, response.data["error"], response.headers.get("Retry-After")


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (Conflict("entries are closed"), 409, "conflict"),
        (Forbidden("not an organizer"), 403, "permission_denied"),
        (UploadTooLarge("too big"), 413, "too_large"),
        (StorageFull("the disk is full"), 507, "storage_full"),
        (Invalid("no"), 400, "invalid"),
    ],
)
def test_the_api_answers_each_kind_with_its_status_and_code(
    exc: AppError, status: int, code: str
) -> None:
    got_status, body, _ = _api(exc)
    assert (got_status, body["code"], body["status"]) == (status, code, status)
    assert body["message"] == exc.message and "fields" not in body


def test_the_api_lists_a_fields_error_under_fields() -> None:
    status, body, _ = _api(UploadRejected("not UTF-8"))
    assert status == 400 and body["code"] == "invalid"
    assert body["fields"] == {"file": ["not UTF-8"]}


def test_the_api_tells_a_rate_limit_when_to_try_again() -> None:
    status, body, retry_after = _api(RateLimited("too many uploads", retry_after=7))
    assert status == 429 and body["code"] == "throttled"
    assert body["retry_after_seconds"] == 7 and retry_after == "7"
    assert body["message"].startswith("too many uploads")


class NameForm(forms.Form):
    name = forms.CharField()


def test_a_page_puts_the_error_beside_its_field_and_answers_400() -> None:
    form = NameForm({"name": "x"})
    assert form.is_valid()
    refusal = Refusal(form)
    with refusal.catch():
        raise Invalid("that name is taken", field="name")
    assert form.errors["name"] == ["that name is taken"] and refusal.status == 400
    other = Refusal(NameForm({"name": "x"}))
    with other.catch():
        raise Conflict("entries are closed")
    assert other.form is not None and other.form.non_field_errors() == ["entries are closed"]
    assert other.status == 400  # the user can act on it: the form again


def test_a_page_keeps_a_rate_limit_or_the_platforms_own_trouble() -> None:
    for exc, status in ((RateLimited("slow down"), 429), (StorageFull("disk full"), 507)):
        refusal = Refusal()
        with refusal.catch():
            raise exc
        assert refusal.status == status and refusal.message == exc.message
    assert Refusal().status == 200  # nothing refused


def test_a_button_shows_the_refusal_as_a_message() -> None:
    request = RequestFactory().post("/")
    request.session = SessionStore()
    request._messages = FallbackStorage(request)  # type: ignore[attr-defined]
    with message_on_refusal(request, "not started"):
        raise Forbidden("only its author can")
    assert [str(m) for m in get_messages(request)] == ["not started: only its author can"]


class Refusing(AppCommand):
    refused = "upload refused: "

    def handle(self, *args: Any, **options: Any) -> None:
        raise UploadRejected("not UTF-8")


def test_a_command_ends_with_the_refusal_as_its_error() -> None:
    with pytest.raises(CommandError, match=r"^upload refused: not UTF-8$"):
        Refusing().execute(no_color=True, force_color=False, skip_checks=True)
