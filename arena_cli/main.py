"""``catan-arena``: play games among bots, validate a bot file, check replays, run the
benchmarks."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from arena_cli.remote.commands import add_server_flags
from arena_cli.remote.commands import run as run_remote
from arena_runner.clock_limits import PLAY_DECISION_SECONDS
from engine import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="catan-arena", description=__doc__)
    parser.add_argument("--version", action="version", version=f"catan-arena {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play games among 3 or 4 bots and print a summary")
    play.add_argument("bots", nargs="+", metavar="BOT", help="built-in name or bot file (.py)")
    play.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help="reproduce a run: game i gets seed SEED+i (small seeds are guessable by a bot "
        "that scans them; without --seed every game gets a fresh 128-bit seed)",
    )
    play.add_argument(
        "--from",
        dest="position",
        metavar="FILE",
        help="continue from a position: a replay file (the site's 'continue from here' "
        "download); the bots keep its seats (no rotation); the first game keeps the "
        "recorded luck when the file has its seed, later games draw fresh chance",
    )
    play.add_argument(
        "--step", type=int, metavar="N", help="with --from: the position after N steps "
        "(default: the file's last step)"
    )  # fmt: skip
    play.add_argument(
        "--reseed", action="store_true", help="with --from: fresh chance in every game"
    )
    play.add_argument("--replays", metavar="DIR", help="write one replay JSON file per game")
    play.add_argument(
        "--logs", metavar="DIR", help="write what each bot printed, one file per bot and game"
    )
    play.add_argument("--json", action="store_true", help="print the summary as JSON last")
    play.add_argument("--no-trade", action="store_true", help="switch domestic trade off")
    play.add_argument("--board", choices=["beginner", "variable", "random_numbers"])
    play.add_argument(
        "--timeout",
        type=float,
        default=PLAY_DECISION_SECONDS,
        metavar="SECONDS",
        help="thinking time per decision (default %(default)s)",
    )
    play.add_argument(
        "--time-bank",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="per-game CPU overage allowance per bot (default %(default)s)",
    )
    play.add_argument(
        "--in-process",
        action="store_true",
        help="run trusted built-in bots in this process (no isolation, no timeouts)",
    )
    play.add_argument(
        "--sandbox-tier",
        choices=["FULL", "BWRAP_NO_LANDLOCK", "NO_NAMESPACES", "NO_LANDLOCK", "NONE"],
        help="sandbox tier for the bot processes (default: the strongest the host "
        "supports, at least $CATAN_SANDBOX_MIN_TIER; NO_LANDLOCK and NONE: your own bots "
        "only, granted only through this flag)",
    )

    validate = sub.add_parser(
        "validate",
        help="check a bot exactly as the platform does on upload (same caps, clock, games)",
    )
    validate.add_argument("file", help="the bot: a .py file, a package folder or a .zip")
    validate.add_argument(
        "--sandbox-tier",
        choices=["FULL", "BWRAP_NO_LANDLOCK", "NO_NAMESPACES", "NO_LANDLOCK", "NONE"],
        help="sandbox tier (default: the strongest the host supports)",
    )
    validate.add_argument(
        "--seed",
        metavar="SEED",
        help="seed of the smoke game, as a report printed it (default: a fresh one)",
    )

    replay = sub.add_parser(
        "replay",
        help="re-simulate replay files (`replay FILE ...`) or download one (`replay download ID`)",
    )
    replay_sub = replay.add_subparsers(dest="replay_command", required=True)
    check = replay_sub.add_parser(
        "check",
        help="re-simulate replay files, check each reproduces, summarise it "
        "(`catan-arena replay FILE ...` for short)",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="replay JSON files")
    download = replay_sub.add_parser(
        "download", help="download a finished match's replay from the server"
    )
    download.add_argument("id", type=int, metavar="MATCH_ID")
    download.add_argument("-o", "--output", help="where to write it (default: match-ID.json)")
    add_server_flags(download)

    login = sub.add_parser("login", help="log in to a Catan Arena server; keeps an API token")
    login.add_argument("--username")
    login.add_argument("--password-stdin", action="store_true", help="read the password from stdin")
    login.add_argument("--name", default="catan-arena command line", help="the token's name")
    add_server_flags(login)

    upload = sub.add_parser("upload", help="upload a bot version to the server")
    upload.add_argument("file", help="a .py file or a .zip package")
    upload.add_argument("--name", required=True, help="the bot's name (made if new)")
    upload.add_argument("--wait", action="store_true", help="follow its validation")
    upload.add_argument("--inherit-rating", action="store_true")
    add_server_flags(upload)

    matches = sub.add_parser("matches", help="list matches on the server, newest first")
    matches.add_argument("--mine", action="store_true", help="only matches of your bots")
    matches.add_argument("--bot", help="only matches of this bot")
    matches.add_argument("--status", help="queued, running, finished, failed or void")
    matches.add_argument("--limit", type=int, default=20)
    matches.add_argument("--json", action="store_true")
    add_server_flags(matches)

    ab_test = sub.add_parser("ab-test", help="does version B beat version A? (on the server)")
    ab_test.add_argument("a", help="version A: an id, BOT or BOT:NUMBER")
    ab_test.add_argument("b", help="version B")
    ab_test.add_argument(
        "--margin", type=float, default=None, help="placing points a game (default: the server's)"
    )
    ab_test.add_argument(
        "--max-pairs", type=int, default=None, help="pairs at most (default: the server's)"
    )
    ab_test.add_argument("--wait", action="store_true", help="follow it to its verdict")
    add_server_flags(ab_test)

    bench = sub.add_parser("bench", help="engine speed, side by side with catanatron")
    bench.add_argument("--json", action="store_true")
    bench.add_argument(
        "--games", type=int, default=None, help="games per repeat (default: the comparison's, 200)"
    )
    bench.add_argument("--repeats", type=int, default=5)
    bench.add_argument("--no-catanatron", action="store_true", help="skip the comparison")
    return parser


REPLAY_COMMANDS = ("check", "download")


def expand(argv: Sequence[str]) -> list[str]:
    """The short form ``catan-arena replay FILE`` is ``catan-arena replay check FILE``."""
    argv = list(argv)
    if argv[:1] == ["replay"] and len(argv) > 1:
        first = argv[1]
        if first not in REPLAY_COMMANDS and not first.startswith("-"):
            return ["replay", "check", *argv[1:]]
    return argv


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(expand(sys.argv[1:] if argv is None else argv))
    if args.command == "play":
        from arena_cli.play import run_play

        return run_play(args)
    if args.command == "validate":
        from arena_cli.validate import run_validate

        return run_validate(args)
    if args.command == "replay" and args.replay_command == "download":
        args.remote = "replay-download"
        return run_remote(args)
    if args.command == "replay":
        from arena_cli.replay_cmd import run_replay

        return max([run_replay(file) for file in args.files])  # every file, each told
    if args.command in ("login", "upload", "matches", "ab-test"):
        args.remote = args.command
        return run_remote(args)
    from arena_cli.bench import run_bench

    return run_bench(args)


if __name__ == "__main__":
    sys.exit(main())
