"""The pages' side of :class:`~catan_arena.core.errors.AppError`, defined once: a
service's refusal becomes the form's error (beside the field it names, if the form has
it) or an error message, never a 500. Used by the site's views and the admin.

- :class:`Refusal` for a page with a form: ``with refusal.catch(): service(...)``, then
  render with ``refusal.status``;
- :func:`message_on_refusal` for a button that redirects: the refusal is a message;
- :func:`as_validation_error` inside a form's ``clean``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from catan_arena.core.errors import AppError


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
