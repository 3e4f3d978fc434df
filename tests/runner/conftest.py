"""Fixtures of the runner's tests (helpers: ``tests.support.runner``)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def bot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bots")
