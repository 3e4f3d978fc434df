"""Numbers from a request, never a 500: a form's field parsed by Django's forms (a value
that is not a whole number in range — ``²`` and other non-ASCII digits that
``str.isdigit`` accepts, huge or negative numbers, blanks — is ``None``, so it answers 400
or the form's message), an id in a URL by the ``<id:…>`` converter (registered here: a
number past the largest key matches no URL, a 404, before it reaches the database — SQLite
cannot bind an integer past 2⁶³ − 1 and raised OverflowError), an id in an API filter by
:class:`IdFilterField`."""

from __future__ import annotations

from django import forms
from django.db.backends.base.operations import BaseDatabaseOperations
from django.urls import register_converter

MAX_ID = BaseDatabaseOperations.integer_field_ranges["BigAutoField"][1]
"""The largest primary key (every model's is a ``BigAutoField``: ``DEFAULT_AUTO_FIELD``)."""

_ID = forms.IntegerField(min_value=1, max_value=MAX_ID)


def object_id(raw: object) -> int | None:
    """The primary key in ``raw`` (a request's field), or None if it cannot be one."""
    try:
        value = _ID.clean(raw)
    except forms.ValidationError:
        return None
    return int(value) if value is not None else None


def int_param(raw: str | None, default: int) -> int:
    """A query parameter as an integer, ``default`` when it is missing or not one."""
    try:
        return int(raw) if raw is not None else default
    except ValueError:
        return default


class IdFilterField(forms.IntegerField):
    """An API filter's id (a ``django_filters.NumberFilter``'s field would be a
    DecimalField): a whole number from 1 to :data:`MAX_ID`, else the filter's 400."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)  # type: ignore[arg-type]


class IdConverter:
    """``<id:pk>``: a primary key in a URL, 1 to :data:`MAX_ID` (anything else: no match,
    404)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= MAX_ID:
            raise ValueError(f"{value} is not a key")
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
