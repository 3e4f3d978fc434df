"""``catan-arena replay download ID``, a subcommand of its own, against a live test
server: a finished match's replay is written and re-simulates bit for bit; while a game
sharing its seed is still to play the replay is refused (404, the server's reason), and
staff get it with the seed withheld, which the command says instead of offering a check."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from arena_cli.main import build_parser, main
from catan_arena.accounts.models import User
from catan_arena.accounts.tokens import create_token
from catan_arena.matches.models import Match
from catan_arena.matches.services import create_match, run_match
from catan_arena.submissions.models import BotVersion
from tests.support.records import FAST

pytestmark = pytest.mark.django_db(transaction=True)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def server(live_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CATAN_ARENA_SERVER", live_server.url)
    monkeypatch.setenv("CATAN_ARENA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("CATAN_ARENA_TOKEN", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    return str(live_server.url)


@pytest.fixture
def finished(three_authors_bots: list[BotVersion]) -> Match:
    match = create_match(three_authors_bots, limits=FAST, ladder=True)
    assert run_match(match.pk) == "finished"
    match.refresh_from_db()
    return match


def test_download_is_a_subcommand_with_its_own_arguments() -> None:
    parser = build_parser()
    args = parser.parse_args(["replay", "download", "7", "-o", "x.json"])
    assert (args.replay_command, args.id, args.output) == ("download", 7, "x.json")
    with pytest.raises(SystemExit):
        parser.parse_args(["replay", "download", "seven"])
    with pytest.raises(SystemExit):
        parser.parse_args(["replay", "download"])


def test_a_finished_matchs_replay_downloads_and_re_simulates(
    server: str, finished: Match, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r.json"
    code, said = cli(capsys, "replay", "download", str(finished.pk), "-o", str(out))
    assert code == 0, said
    assert f"check it: catan-arena replay {out}" in said
    assert json.loads(out.read_bytes())["seed"] == finished.seed
    code, said = cli(capsys, "replay", str(out))
    assert code == 0 and "reproduces" in said, said


def test_a_replay_whose_seed_group_is_still_playing_is_withheld(
    server: str,
    finished: Match,
    three_authors_bots: list[BotVersion],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    create_match(three_authors_bots[::-1], limits=FAST, seed=finished.seed)  # still to play
    out = tmp_path / "r.json"
    code, said = cli(capsys, "replay", "download", str(finished.pk), "-o", str(out))
    assert code == 1 and "withheld while a game sharing its seed" in said and "(404)" in said
    assert not out.exists()
    staff = User.objects.create_user("root", password="x-4521-y", is_staff=True)
    monkeypatch.setenv("CATAN_ARENA_TOKEN", create_token(staff, "cli")[1])
    code, said = cli(capsys, "replay", "download", str(finished.pk), "-o", str(out))
    assert code == 0 and "its seed is withheld" in said and "check it" not in said, said
    assert json.loads(out.read_bytes())["seed"] is None


def test_a_match_without_a_replay_is_a_message(
    server: str, three_authors_bots: list[BotVersion], capsys: pytest.CaptureFixture[str]
) -> None:
    queued = create_match(three_authors_bots, limits=FAST)
    code, said = cli(capsys, "replay", "download", str(queued.pk))
    assert code == 1 and f"match {queued.pk} has no replay (queued) (404)" in said
