"""``catan-arena``: play games among bots, check replays, run the benchmarks."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="catan-arena", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play games among 3 or 4 bots and print a summary")
    play.add_argument("bots", nargs="+", metavar="BOT", help="built-in name or bot file (.py)")
    play.add_argument("--games", type=int, default=10)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--replays", metavar="DIR", help="write one replay JSON file per game")
    play.add_argument("--json", action="store_true", help="print the summary as JSON last")
    play.add_argument("--no-trade", action="store_true", help="switch domestic trade off")
    play.add_argument("--board", choices=["beginner", "variable", "random_numbers"])

    replay = sub.add_parser("replay", help="re-simulate a replay file and summarise it")
    replay.add_argument("file")

    bench = sub.add_parser("bench", help="engine speed, side by side with catanatron")
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--games", type=int, default=30, help="games per repeat")
    bench.add_argument("--repeats", type=int, default=5)
    bench.add_argument("--no-catanatron", action="store_true", help="skip the comparison")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "play":
        from arena_cli.play import run_play

        return run_play(args)
    if args.command == "replay":
        from arena_cli.replay_cmd import run_replay

        return run_replay(args.file)
    from arena_cli.bench import run_bench

    return run_bench(args)


if __name__ == "__main__":
    sys.exit(main())
