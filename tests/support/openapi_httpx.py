"""openapi-core's view of httpx's exchanges: every request a client made and the answer
it got, recorded by an event hook, validated against the schema."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
from openapi_core import OpenAPI
from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict


class HttpxRequest:
    """An httpx request as openapi-core's ``Request`` protocol."""

    def __init__(self, request: httpx.Request) -> None:
        url = urlsplit(str(request.url))
        self.host_url = f"{url.scheme}://{url.netloc}"
        self.path = url.path
        self.method = request.method.lower()
        self.body: bytes | None = request.content or None
        self.content_type = request.headers.get("content-type", "").split(";")[0]
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(parse_qsl(url.query)),
            header=Headers(dict(request.headers)),
            cookie=ImmutableMultiDict(),
        )


class HttpxResponse:
    """An httpx response (read) as openapi-core's ``Response`` protocol."""

    def __init__(self, response: httpx.Response) -> None:
        self.status_code = response.status_code
        self.content_type = response.headers.get("content-type", "").split(";")[0]
        self.headers = Headers(dict(response.headers))
        self.data: bytes | None = response.content or None


@dataclass
class Recorder:
    """Keeps every exchange of the clients whose ``event_hooks`` it is."""

    exchanges: list[httpx.Response] = field(default_factory=list)

    def hooks(self) -> dict[str, Any]:
        return {"event_hooks": {"request": [self.buffer], "response": [self.keep]}}

    def buffer(self, request: httpx.Request) -> None:
        request.read()  # a multipart body, kept to be validated too

    def keep(self, response: httpx.Response) -> None:
        response.read()
        self.exchanges.append(response)

    def problems(self, schema: dict[str, Any]) -> list[str]:
        """Each recorded answer the schema does not describe, in words."""
        spec = OpenAPI.from_dict(schema)
        found = []
        for response in self.exchanges:
            try:
                spec.validate_response(HttpxRequest(response.request), HttpxResponse(response))
            except Exception as exc:  # openapi-core's many kinds of mismatch
                asked = f"{response.request.method} {response.request.url}"
                found.append(f"{asked} {response.status_code}: {exc!r} {exc.__cause__!r}")
        return found
