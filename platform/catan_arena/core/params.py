"""Numbers from a request's fields, parsed by Django's forms: a value that is not a whole
number in range (``²`` and other non-ASCII digits that ``str.isdigit`` accepts, huge or
negative numbers, blanks) is ``None``, never an exception, so it answers 400 or the form's
message, not 500."""

from __future__ import annotations

from django import forms
from django.db.backends.base.operations import BaseDatabaseOperations

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
