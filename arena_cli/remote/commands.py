"""The author's commands: ``login``, ``upload``, ``matches``, ``replay download``,
``ab-test``. Each prints what the server said; a refusal is a message and exit code 1."""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from arena_cli.remote import config
from arena_cli.remote.api import Api, ApiError
from bots.package import upload_bytes

POLL_SECONDS = 1.0
WAIT_SECONDS = 1800.0


def add_server_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server", help=f"server URL (or ${config.ENV_SERVER}, or the config file)"
    )
    parser.add_argument("--token", help=f"API token (or ${config.ENV_TOKEN}, or the config file)")


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    api = Api(config.resolve(args.server, args.token))
    try:
        handler = {
            "login": _login,
            "upload": _upload,
            "matches": _matches,
            "replay-download": _download,
            "ab-test": _ab_test,
        }[args.remote]
        return handler(api, args, console)
    except ApiError as exc:
        console.print(f"[red]error:[/] {escape(str(exc))}")
        return 1
    finally:
        api.close()


def _login(api: Api, args: argparse.Namespace, console: Console) -> int:
    username = args.username or input("username: ")
    password = sys.stdin.readline().rstrip("\n") if args.password_stdin else getpass.getpass()
    made = api.post(
        "/auth/token/", json={"username": username, "password": password, "name": args.name}
    )
    path = config.save(api.server, made["key"])
    console.print(
        f"logged in to {escape(api.server)} as {escape(username)}; token "
        f"{escape(made['prefix'])}… saved in {path}"
    )
    return 0


def _upload(api: Api, args: argparse.Namespace, console: Console) -> int:
    path = Path(args.file)
    try:
        filename, data = upload_bytes(path)  # a package folder: the zip validate checks
    except OSError as exc:
        console.print(f"[red]error:[/] cannot read {escape(str(path))}: {exc.strerror}")
        return 1
    reply = api.post(
        f"/bots/{args.name}/versions/",
        files={"file": (filename, data)},
        data={"inherit_rating": "true" if args.inherit_rating else "false"},
    )
    version = reply["version"]
    console.print(escape(reply["message"]))
    if args.wait:
        version = _wait_for_validation(api, version, console)
    console.print(f"{escape(version['bot'])} v{version['number']}: {version['status']}")
    if version.get("report"):
        console.print(escape(version["report"]))
    return 1 if version["status"] == "rejected" else 0


def _wait_for_validation(api: Api, version: dict[str, Any], console: Console) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_SECONDS
    with console.status("validating…") as status:
        while version["status"] in ("pending", "validating") and time.monotonic() < deadline:
            status.update(f"{version['status']}… (a smoke game in the sandbox)")
            time.sleep(POLL_SECONDS)
            version = api.get(f"/versions/{version['id']}/")
    return version


def _matches(api: Api, args: argparse.Namespace, console: Console) -> int:
    params: dict[str, Any] = {"limit": args.limit}
    if args.mine:
        params["owner"] = api.get("/me/")["username"]
    if args.bot:
        params["bot"] = args.bot
    if args.status:
        params["status"] = args.status
    page = api.get("/matches/", **params)
    if args.json:
        print(json.dumps(page["results"], indent=2))
        return 0
    table = Table(title="Matches, newest first")
    for column in ("id", "status", "finished", "seats (bot: place, points)", "faults"):
        table.add_column(column)
    for match in page["results"]:
        seats = ", ".join(
            f"{s['bot']}: {s['placing'] or '-'}, {s['points'] if s['points'] is not None else '-'}"
            for s in match["seats"]
        )
        faults = sum(s["fault_count"] for s in match["seats"])
        finished = (match["finished_at"] or "")[:19].replace("T", " ")
        table.add_row(str(match["id"]), match["status"], finished, escape(seats), str(faults))
    console.print(table)
    return 0


def _download(api: Api, args: argparse.Namespace, console: Console) -> int:
    """A finished match's replay as the API serves it (``/matches/ID/replay/``): faults
    in plain words; refused (404) while a game sharing its seed is queued or running,
    and for staff then served with its seed withheld (``null``)."""
    response = api.request("GET", f"/matches/{args.id}/replay/")
    try:
        replay = response.json()
    except ValueError:
        raise ApiError(f"the server's answer for match {args.id} is not a replay") from None
    if not isinstance(replay, dict) or "steps" not in replay:
        raise ApiError(f"the server's answer for match {args.id} is not a replay")
    out = Path(args.output or f"match-{args.id}.json")
    out.write_bytes(response.content)
    size = len(response.content)
    where = escape(str(out))
    console.print(f"replay of match {args.id} written to {where} ({size:,} bytes)", soft_wrap=True)
    if replay.get("seed") is None:
        console.print(
            "its seed is withheld while a game sharing it is still to be played: "
            "download it again once that game is done to re-simulate it"
        )
    else:
        console.print(f"check it: catan-arena replay {where}", soft_wrap=True)
    return 0


def _version_id(api: Api, spec: str) -> int:
    """A version id, or ``BOT`` (its newest active version) or ``BOT:NUMBER``."""
    if spec.isdigit():
        return int(spec)
    name, _, number = spec.partition(":")
    found = api.get("/versions/", bot=name, limit=200)["results"]
    for version in found:
        if (number and str(version["number"]) == number) or (
            not number and version["status"] == "active"
        ):
            return int(version["id"])
    raise ApiError(f"no version {spec!r} (write an id, BOT or BOT:NUMBER)")


def _ab_test(api: Api, args: argparse.Namespace, console: Console) -> int:
    body = {
        "version_a": _version_id(api, args.a),
        "version_b": _version_id(api, args.b),
    }
    for name in ("margin", "max_pairs"):  # left out: the server's default
        if getattr(args, name) is not None:
            body[name] = getattr(args, name)
    test = api.post("/ab-tests/", json=body)
    console.print(f"A/B test {test['id']}: {escape(test['summary'])}")
    if not args.wait:
        return 0
    last = ""
    deadline = time.monotonic() + WAIT_SECONDS
    while test["status"] == "running" and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        test = api.get(f"/ab-tests/{test['id']}/")
        if test["summary"] != last:
            last = test["summary"]
            console.print(escape(last))
    return 0
