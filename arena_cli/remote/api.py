"""A thin HTTP client of the server's REST API (``/api/v1/``) that turns its JSON
errors into :class:`ApiError` with the server's own message."""

from __future__ import annotations

from typing import Any

import httpx

from arena_cli.remote.config import Settings

TIMEOUT = 60.0


class ApiError(Exception):
    """The server said no (or could not be reached); the message says why."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class Api:
    def __init__(self, settings: Settings) -> None:
        headers = {"Authorization": f"Token {settings.token}"} if settings.token else {}
        self.server = settings.server
        self._http = httpx.Client(
            base_url=f"{settings.server}/api/v1", headers=headers, timeout=TIMEOUT
        )

    def close(self) -> None:
        self._http.close()

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise ApiError(f"cannot reach {self.server}: {exc}") from None
        if response.status_code >= 400:
            raise ApiError(_message(response), response.status_code)
        return response

    def get(self, path: str, **params: Any) -> Any:
        return self.request("GET", path, params=params).json()

    def post(self, path: str, **kwargs: Any) -> Any:
        return self.request("POST", path, **kwargs).json()


def _message(response: httpx.Response) -> str:
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        return f"the server answered {response.status_code}"
    message = str(error.get("message", ""))
    for field, problems in (error.get("fields") or {}).items():
        message += f"\n  {field}: {'; '.join(str(p) for p in problems)}"
    return f"{message} ({response.status_code})"
