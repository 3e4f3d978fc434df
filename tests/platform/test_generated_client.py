"""Issue 24: a client generated from the live schema by a standard generator works
unmodified. The bot guide's own command (openapi-python-client, pinned in the dev extra)
generates it from ``manage.py serve``'s schema into a temporary folder; ``mypy --strict``
passes on every generated file; an author's flow runs with it against that server
(its worker validates the upload): log in, the ladder, matches page by page through the
cursor, upload, validation followed, a replay and its 304, and a 400, 401, 404 and 429
read as the typed ``ApiError``. Every answer of the flow is then validated against the
schema by openapi-core (the control: a doctored answer is not)."""

from __future__ import annotations

import importlib
import inspect
import io
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.support.bots import VALID_BOT
from tests.support.doc_text import everything_shown, program
from tests.support.openapi_httpx import Recorder
from tests.support.serve_tree import ServeTree, manage, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

PASSWORD = "correct-horse-4521"
GUIDE_SERVER = "https://arena.example.org"
PACKAGE = "catan_arena_client"


def generate(url: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """The bot guide's command as printed, with this server's address: no ``ruff`` on
    ``PATH`` (the generator would run the reader's own, whatever its version)."""
    (shown,) = [s for s in everything_shown() if program(s.command) == "openapi-python-client"]
    words = shlex.split(shown.command.replace(GUIDE_SERVER, url))
    tool = Path(sys.executable).parent / words[0]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(folder)}
    return subprocess.run(
        [str(tool), *words[1:]], cwd=folder, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def serve(tmp_path: Path) -> Any:
    tree = ServeTree(
        tmp_path / "data",
        CATAN_ARENA_UPLOAD_RATE="2/hour",  # the third upload answers 429
        CATAN_ARENA_LADDER_TICK_SECONDS="1",
    ).wait_ready()
    author = f"User.objects.create_user('ada', password='{PASSWORD}')"
    made = manage(
        tree.data, "shell", "-c", f"from catan_arena.accounts.models import User; {author}"
    )
    assert made.returncode == 0, made.stderr
    yield tree
    tree.stop()


@pytest.fixture
def generated(serve: ServeTree, tmp_path: Path) -> Any:
    folder = tmp_path / "client"
    folder.mkdir()
    made = generate(serve.url, folder)
    assert made.returncode == 0, made.stdout + made.stderr
    files = sorted((folder / PACKAGE).rglob("*.py"))
    assert len(files) > 50
    typed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--cache-dir", str(tmp_path / "mypy"), PACKAGE],
        cwd=folder, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert typed.returncode == 0, typed.stdout
    assert f"Success: no issues found in {len(files)} source files" in typed.stdout
    sys.path.insert(0, str(folder))
    yield importlib.import_module(PACKAGE)
    sys.path.remove(str(folder))
    for name in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
        del sys.modules[name]


class Endpoints:
    """The generated operation modules by tag (``api.matches.matches_list``)."""

    def __getattr__(self, tag: str) -> Any:
        return Tag(tag)


class Tag:
    def __init__(self, tag: str) -> None:
        self.tag = tag

    def __getattr__(self, operation: str) -> Any:
        return importlib.import_module(f"{PACKAGE}.api.{self.tag}.{operation}")


def cursor_of(link: str) -> str:
    """The ``cursor`` query value of a page's ``next`` link."""
    return parse_qs(urlsplit(link).query)["cursor"][0]


def test_a_generated_client_runs_an_authors_flow(serve: ServeTree, generated: Any) -> None:
    api = Endpoints()
    m = importlib.import_module(f"{PACKAGE}.models")
    from_types = importlib.import_module(f"{PACKAGE}.types")
    recorder = Recorder()
    hooks = recorder.hooks()

    signature = inspect.signature(api.auth.auth_token_create.sync).parameters["client"]
    assert signature.annotation == generated.AuthenticatedClient | generated.Client  # no key
    anonymous = generated.Client(serve.url, raise_on_unexpected_status=True, httpx_args=hooks)
    login = m.LoginRequest(username="ada", password=PASSWORD, name="script")
    token = api.auth.auth_token_create.sync(client=anonymous, body=login)
    assert isinstance(token, m.NewToken) and token.key.startswith("cat_")
    me = generated.AuthenticatedClient(
        serve.url, token=token.key, raise_on_unexpected_status=True, httpx_args=hooks
    )
    assert api.me.me_retrieve.sync(client=me).username == "ada"

    # matches, a page of one at a time: the house bots' ladder games
    finished = m.MatchesListStatus.FINISHED

    def two_finished() -> bool:
        page = api.matches.matches_list.sync(client=me, status=finished, limit=1)
        return bool(page.results and page.next_)

    wait_for(two_finished, 180, "two finished ladder games", serve)
    first = api.matches.matches_list.sync(client=me, status=finished, limit=1)
    second = api.matches.matches_list.sync(
        client=me, status=finished, limit=1, cursor=cursor_of(first.next_)
    )
    assert isinstance(second, m.PaginatedMatchList)
    assert second.results[0].id < first.results[0].id  # newest first, no repeat
    ladder = api.ladder.ladder_list.sync(client=me)
    assert isinstance(ladder, m.PaginatedRatingList) and ladder.count >= 1
    public = inspect.signature(api.ladder.ladder_list.sync).parameters["client"]
    assert public.annotation == generated.AuthenticatedClient | generated.Client  # no key
    assert api.ladder.ladder_list.sync(client=anonymous).count == ladder.count
    tournaments = api.tournaments.tournaments_list.sync(client=anonymous)
    assert tournaments is not None and tournaments.results == []

    # an upload, its validation followed
    def upload(content: bytes, filename: str) -> Any:
        body = m.UploadRequest(file=from_types.File(io.BytesIO(content), file_name=filename))
        return api.bots.bots_versions_create.sync_detailed("wanderer", client=me, body=body)

    sent = upload(VALID_BOT, "wanderer.py")
    assert sent.status_code == 201 and isinstance(sent.parsed, m.UploadResult)
    version = sent.parsed.version.id
    done = (m.VersionStatusEnum.ACTIVE, m.VersionStatusEnum.REJECTED)

    def validated() -> bool:
        return api.versions.versions_retrieve.sync(version, client=me).status in done

    wait_for(validated, 120, "the upload's validation", serve)
    assert api.versions.versions_retrieve.sync(version, client=me).status == done[0]

    # a replay, then the same again: 304 to its ETag
    match = first.results[0].id
    replay = api.matches.matches_replay_retrieve.sync_detailed(match, client=me)
    assert replay.status_code == 200 and len(replay.content) > 1000
    again = api.matches.matches_replay_retrieve.sync_detailed(
        match, client=me, if_none_match=replay.headers["etag"]
    )
    assert again.status_code == 304

    # the errors, typed
    bad_cursor = api.matches.matches_list.sync_detailed(client=me, cursor="not-a-cursor")
    assert bad_cursor.status_code == 400 and isinstance(bad_cursor.parsed, m.ApiError)
    assert "cursor" in bad_cursor.parsed.error.fields.additional_properties
    stranger = generated.AuthenticatedClient(
        serve.url, token="cat_not-a-key", raise_on_unexpected_status=True, httpx_args=hooks
    )
    refused = api.me.me_retrieve.sync_detailed(client=stranger)
    assert refused.status_code == 401 and refused.parsed.error.status == 401
    missing = api.matches.matches_retrieve.sync_detailed(10**9, client=me)
    assert missing.status_code == 404 and missing.parsed.error.code == "not_found"
    not_a_bot = upload(b"just notes", "notes.txt")  # the second upload of the hour
    assert not_a_bot.status_code == 400 and isinstance(not_a_bot.parsed, m.ApiError)
    over = upload(VALID_BOT, "wanderer.py")  # the third: over the rate
    assert over.status_code == 429 and isinstance(over.parsed, m.ApiError)
    assert over.parsed.error.status == 429 and over.parsed.error.message

    # every answer of the flow, against the live schema
    seen = {r.status_code for r in recorder.exchanges}
    assert {200, 201, 304, 400, 401, 404, 429} <= seen, seen
    schema = httpx.get(f"{serve.url}/api/v1/schema/?format=json", timeout=60).json()
    assert recorder.problems(schema) == []
    asked = httpx.Request("GET", f"{serve.url}/api/v1/matches/{match}/")
    doctored = httpx.Response(200, json={"id": "not a number"}, request=asked)
    control = Recorder([doctored])
    assert control.problems(schema), "a wrong answer passes the schema check"
