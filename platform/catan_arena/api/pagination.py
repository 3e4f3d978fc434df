"""Pagination: numbered pages for short lists, a cursor for matches (stable while new
matches arrive, fast at any depth)."""

from __future__ import annotations

from rest_framework.pagination import CursorPagination, LimitOffsetPagination


class Pages(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


class NewestFirst(CursorPagination):
    ordering = "-id"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200
