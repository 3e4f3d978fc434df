"""A short schemathesis run (generated requests from the OpenAPI schema, every operation,
signed in as an organizer and not signed in) against a live test server: no 5xx. The
longer run is a documented command (docs/RELIABILITY.md)."""

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
from tests.support.records import active_bots

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]


@pytest.mark.parametrize("signed_in", [True, False], ids=["organizer", "anonymous"])
def test_generated_requests_never_get_a_server_error(live_server: Any, signed_in: bool) -> None:
    root = grant_role(
        User.objects.create_superuser("root", "r@example.org", "x-4521-y"), ORGANIZERS
    )
    active_bots(root, 2)
    _, key = create_token(root, "fuzz")
    auth = ["-H", f"Authorization: Token {key}"] if signed_in else []
    command = [
        str(Path(sys.executable).with_name("schemathesis")), "run",
        f"{live_server.url}/api/v1/schema/",
        "--checks", "not_a_server_error", *auth,
        "--max-examples", "4" if signed_in else "2", "--phases", "coverage,fuzzing",
        "--seed", "7",
        # revoking its own token would leave the rest of the run signed out
        "--exclude-path-regex", "/me/tokens/",
    ]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "passed" in run.stdout and "Tested: " in run.stdout
