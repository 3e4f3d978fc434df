"""A short schemathesis run (generated requests from the OpenAPI schema, signed in as an
organizer, every operation) against a live test server: no 5xx. The longer run belongs
to the reliability issue."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from catan_arena.accounts.models import User
from catan_arena.accounts.roles import ORGANIZERS
from catan_arena.accounts.services import grant_role
from catan_arena.accounts.tokens import create_token
from tests.platform.conftest import active_bots

pytestmark = pytest.mark.django_db(transaction=True)


def test_generated_requests_never_get_a_server_error(live_server: Any) -> None:
    root = grant_role(
        User.objects.create_superuser("root", "r@example.org", "x-4521-y"), ORGANIZERS
    )
    active_bots(root, 2)
    _, key = create_token(root, "fuzz")
    command = [
        str(Path(sys.executable).with_name("schemathesis")), "run",
        f"{live_server.url}/api/v1/schema/",
        "--checks", "not_a_server_error",
        "-H", f"Authorization: Token {key}",
        "--max-examples", "4", "--phases", "coverage,fuzzing", "--seed", "7",
        # revoking its own token would leave the rest of the run signed out
        "--exclude-path-regex", "/me/tokens/",
    ]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "passed" in run.stdout and "Tested: " in run.stdout
