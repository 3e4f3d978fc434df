"""Fixtures of the sandbox tests (helpers: ``tests.support.sandbox``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.sandbox import Listener


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    yield server
    server.close()
