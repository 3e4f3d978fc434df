"""Pagination: numbered pages for short lists, a cursor for matches (stable while new
matches arrive, fast at any depth)."""

from __future__ import annotations

from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import Cursor, CursorPagination, LimitOffsetPagination
from rest_framework.request import Request

from catan_arena.core.params import object_id


class Pages(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


class NewestFirst(CursorPagination):
    ordering = "-id"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200
    invalid_cursor_message = "not a cursor of this list: follow the next and previous links"
    cursor_query_description = (
        "The `cursor` query value of a page's `next` (or `previous`) link; leave it out for "
        "the first page."
    )

    def decode_cursor(self, request: Request) -> Cursor | None:
        """The cursor, or 400 for one that was not made here (a position is an id, since
        the list is ordered by id: a tampered one would otherwise reach the database)."""
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            cursor = None
            valid = False
        else:
            valid = cursor is None or cursor.position is None or bool(object_id(cursor.position))
        if not valid:
            raise ValidationError({self.cursor_query_param: [self.invalid_cursor_message]})
        return cursor
