"""The pages' side of :class:`~catan_arena.core.errors.AppError`, defined once: a
service's refusal becomes the form's error (beside the field it names, if the form has
it) or an error message, never a 500. Used by the site's views and the admin.

- :class:`Refusal` for a page with a form: ``with refusal.catch(): service(...)``, then
  render with ``refusal.status``;
- :func:`message_on_refusal` for a button that redirects: the refusal is a message;
- :func:`as_validation_error` inside a form's ``clean``;
- :func:`json_refusals` for a page's JSON endpoint (the play page's): the API's error
  shape with the error's status; a missing thing (404) is the page's 404."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse

from catan_arena.core.errors import AppError, json_error


def page_status(error: AppError) -> int:
    """A page shown again with its error answers 400 (the user can fix the form), except
    a rate limit (429) and the platform's own trouble (5xx), which keep theirs."""
    return error.status if error.status == 429 or error.status >= 500 else 400


class Refusal:
    """What a page's service calls refused, for its form and its status code."""

    def __init__(self, form: forms.BaseForm | None = None) -> None:
        self.form = form
        self.error: AppError | None = None

    @contextmanager
    def catch(self) -> Iterator[None]:
        """Run service calls; an :class:`AppError` is kept and added to the bound form."""
        try:
            yield
        except AppError as exc:
            self.error = exc
            form = self.form
            if form is not None and form.is_bound:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)

    @property
    def message(self) -> str | None:
        return self.error.message if self.error is not None else None

    @property
    def status(self) -> int:
        """The page's status: the refusal's, else 400 while the form has errors, else 200."""
        if self.error is not None:
            return page_status(self.error)
        return 400 if self.form is not None and self.form.errors else 200


@contextmanager
def message_on_refusal(request: HttpRequest, refused: str = "not done") -> Iterator[None]:
    """Run a page's action: an :class:`AppError` (or the page's own form
    ``ValidationError``) becomes the error message ``"{refused}: why"``."""
    try:
        yield
    except (AppError, forms.ValidationError) as exc:
        text = "; ".join(exc.messages) if isinstance(exc, forms.ValidationError) else str(exc)
        messages.error(request, f"{refused}: {text or 'not allowed'}")


@contextmanager
def as_validation_error() -> Iterator[None]:
    """Inside a form's ``clean``: an :class:`AppError` is the form's ``ValidationError``."""
    try:
        yield
    except AppError as exc:
        raise forms.ValidationError(exc.message) from None


def json_refusals(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page's JSON endpoint: a service's refusal is answered as the API's error shape
    (:func:`~catan_arena.core.errors.json_error`) with its status, never a 500."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except AppError as exc:
            return json_error(exc.status, exc.code, exc.message)

    return wrapped


@contextmanager
def missing_as_404() -> Iterator[None]:
    """A page: a service's "no such thing" (404) is the page's 404; its other refusals
    keep theirs (a ``Forbidden`` is Django's 403)."""
    try:
        yield
    except AppError as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        raise
