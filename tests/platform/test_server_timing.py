"""Every response says how long the application spent on it (``Server-Timing``), the
figure the load test reports per page."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_pages_and_the_api_carry_their_server_time(client: Client) -> None:
    for url in ("/", "/ladder/", "/api/v1/ladder/", "/no-such-page/"):
        header = client.get(url)["Server-Timing"]
        assert re.fullmatch(r"app;dur=\d+\.\d", header), (url, header)


def test_the_time_is_the_time_spent(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from catan_arena.web import selectors

    rows = selectors.ladder_rows

    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(0.2)
        return rows(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(selectors, "ladder_rows", slow)
    duration = float(client.get("/")["Server-Timing"].split("=")[1])
    assert duration >= 200
