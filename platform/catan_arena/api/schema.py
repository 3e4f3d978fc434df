"""The OpenAPI schema as the API enforces it (drf-spectacular's ``AutoSchema``, extended):
each operation's error answers in the one error shape (:class:`~catan_arena.api.errors.
ApiErrorSerializer`), and its security from the view's own permission checks run for an
anonymous request: an operation that lets one through declares no security requirement
(a generated client then calls it with or without a key; a key, when sent, may show
more and a bad one is a 401, as every operation's errors say); the others declare the
schemes they accept."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from catan_arena.api.errors import ApiErrorSerializer

Refusals = dict[str, tuple[int, ...]]
"""A view's ``refusals``: the statuses beyond the usual ones each method may answer."""

ERROR_MEANINGS = {
    400: "Not valid: the request's fields or query parameters (``fields`` says which).",
    401: "Not signed in, or an unknown or revoked token.",
    403: "Signed in but not allowed to do this.",
    404: "No such object (or not visible to you).",
    409: "Not possible in the object's current state.",
    413: "Over the upload size cap.",
    415: "A body not of the declared media type: JSON (the upload: multipart/form-data).",
    429: "Over a rate or fair-use limit (``retry_after_seconds`` when known).",
}


def anonymous_allowed(view: Any, method: str) -> bool:
    """Whether the view's permission checks let an anonymous ``method`` request through."""
    request = Request(RequestFactory().generic(method, "/"))
    request.user = AnonymousUser()
    return all(p.has_permission(request, view) for p in view.get_permissions())


class ArenaAutoSchema(AutoSchema):
    """drf-spectacular's schema with the errors and security each operation answers."""

    def get_auth(self) -> list[dict[str, list[Any]]]:
        if anonymous_allowed(self.view, self.method):
            return []  # no requirement: a key is optional
        return [auth for auth in super().get_auth() if auth]

    def error_statuses(self) -> list[int]:
        """401 anywhere (a bad token is refused on any path); 400 where a body or query
        parameters are read; 415 where a body is (one of another media type than its
        parsers'); 403 for writes; 404 where the path names an object; plus the view's
        own ``refusals`` by method (``{"POST": (409, 429)}``)."""
        statuses = {401}
        writes = self.method not in SAFE_METHODS
        body = self.method in ("POST", "PUT", "PATCH") and self.get_request_serializer() is not None
        if body or self._query_parameters():
            statuses.add(400)
        if body:
            statuses.add(415)
        if writes:
            statuses.add(403)
        statuses.update(getattr(self.view, "refusals", {}).get(self.method, ()))
        if "{" in self.path:
            statuses.add(404)
        return sorted(statuses)

    def _query_parameters(self) -> bool:
        """Whether the operation reads query parameters (filters, pages)."""
        filters = self._get_filter_parameters()  # type: ignore[no-untyped-call]
        return bool(filters or self._get_pagination_parameters())  # type: ignore[no-untyped-call]

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for status in self.error_statuses():
            answer = OpenApiResponse(ApiErrorSerializer, description=ERROR_MEANINGS[status])
            body = self._get_response_for_code(answer, str(status), direction=direction)  # type: ignore[no-untyped-call]
            responses.setdefault(str(status), body)
        return responses
