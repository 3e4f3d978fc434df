"""The author's command line against a live test server (a real HTTP server on this
machine's loopback, the test database behind it) — and, end to end, a real Celery
worker with beat: account → login → upload --wait → validated → ladder games → matches
→ replay download → re-simulated bit for bit."""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path
from typing import Any

import pytest

from arena_cli.main import main
from catan_arena.accounts.models import User
from catan_arena.ladder.models import LadderSettings
from catan_arena.matches.models import Match
from catan_arena.submissions.models import BotVersion
from tests.support.bots import VALID_BOT
from tests.support.celery_worker import CeleryWorker, wait_for
from tests.support.records import active_bots

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "correct-horse-4521"


@pytest.fixture
def cli_env(live_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The client pointed at the live server, with a config folder of its own."""
    monkeypatch.setenv("CATAN_ARENA_SERVER", live_server.url)
    monkeypatch.setenv("CATAN_ARENA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("CATAN_ARENA_TOKEN", raising=False)
    return {"server": live_server.url, "config": str(tmp_path / "config")}


def cli(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *argv: str,
    stdin: str = "",
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def make_author() -> User:
    return User.objects.create_user("ada", password=PASSWORD)


def test_login_keeps_the_token_private(
    cli_env: dict[str, str], capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_author()
    code, out = cli(capsys, monkeypatch, "login", "--username", "ada", "--password-stdin",
                    stdin="wrong\n")  # fmt: skip
    assert code == 1 and "wrong username or password (401)" in out
    code, out = cli(capsys, monkeypatch, "login", "--username", "ada", "--password-stdin",
                    stdin=PASSWORD + "\n")  # fmt: skip
    assert code == 0 and "logged in" in out
    path = Path(cli_env["config"]) / "config.json"
    saved = json.loads(path.read_text())
    assert saved["token"].startswith("cat_") and saved["token"] not in out
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    code, out = cli(capsys, monkeypatch, "matches")
    assert code == 0 and "Matches" in out


def test_refusals_are_messages_not_tracebacks(
    cli_env: dict[str, str], capsys: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    code, out = cli(capsys, monkeypatch, "upload", str(tmp_path / "none.py"), "--name", "x")
    assert code == 1 and "cannot read" in out
    bot = tmp_path / "bot.py"
    bot.write_bytes(VALID_BOT)
    code, out = cli(capsys, monkeypatch, "upload", str(bot), "--name", "x")
    assert code == 1 and "(401)" in out
    code, out = cli(capsys, monkeypatch, "replay", "download", "424242")
    assert code == 1 and "no such match (404)" in out
    code, out = cli(capsys, monkeypatch, "matches", "--server", "http://127.0.0.1:9")
    assert code == 1 and "cannot reach" in out


def test_an_author_goes_from_account_to_ladder_with_the_cli_alone(
    cli_env: dict[str, str],
    server_mode: dict[str, str],
    workers: list[Any],
    capsys: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    LadderSettings.objects.create(pk=1, tables_in_flight=1, decision_seconds=0.3)
    for name in ("grace", "hedy"):  # two other authors already on the ladder
        active_bots(User.objects.create_user(name, password="x-4521-y"), 1)
    make_author()
    ticks = {"CATAN_ARENA_LADDER_TICK_SECONDS": "1"}
    workers.append(CeleryWorker(server_mode | ticks, concurrency=2, beat=True))
    code, _ = cli(capsys, monkeypatch, "login", "--username", "ada", "--password-stdin",
                  stdin=PASSWORD + "\n")  # fmt: skip
    assert code == 0
    bot = tmp_path / "wanderer.py"
    bot.write_bytes(VALID_BOT)
    code, out = cli(capsys, monkeypatch, "upload", str(bot), "--name", "wanderer", "--wait")
    assert code == 0, out
    assert "wanderer v1: active" in out and "smoke game" in out

    def played() -> bool:
        mine = Match.objects.filter(seats__version__bot__name="wanderer", status="finished")
        return mine.exists()

    wait_for(played, 120, "a ladder game of the new bot", workers[0])
    code, out = cli(capsys, monkeypatch, "matches", "--mine", "--json")
    listed = json.loads(out)
    finished = [m for m in listed if m["status"] == "finished"]
    assert (
        code == 0
        and finished
        and all(any(s["bot"] == "wanderer" for s in m["seats"]) for m in listed)
    )
    replay_file = tmp_path / "r.json"
    code, out = cli(capsys, monkeypatch, "replay", "download", str(finished[0]["id"]),
                    "-o", str(replay_file))  # fmt: skip
    assert code == 0 and replay_file.stat().st_size > 1000
    code, out = cli(capsys, monkeypatch, "replay", str(replay_file))
    assert code == 0, out  # the local engine re-simulates the server's game bit for bit


def test_a_package_folder_uploads_as_the_zip_validate_checks(
    cli_env: dict[str, str], capsys: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    make_author()
    code, _ = cli(capsys, monkeypatch, "login", "--username", "ada", "--password-stdin",
                  stdin=PASSWORD + "\n")  # fmt: skip
    assert code == 0
    folder = tmp_path / "mybot"
    folder.mkdir()
    (folder / "bot.py").write_bytes(VALID_BOT)
    (folder / "weights.json").write_text("{}")
    code, out = cli(capsys, monkeypatch, "upload", str(folder), "--name", "folded")
    assert code == 0, out
    version = BotVersion.objects.get(bot__name="folded")
    assert (version.kind, version.filename) == ("zip", "mybot.zip")
