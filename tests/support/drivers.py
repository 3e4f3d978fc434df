"""Fake bot processes for the seat drivers' tests: a child that says hello, then
answers each message with the next of its scripted replies."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from arena_runner import BotProcess, Fault, SubprocessDriver
from bots.protocol import PROTOCOL_VERSION
from engine import Game, RulesConfig

CONFIG = RulesConfig()


def fake_child(
    directory: Path, *replies: bytes, jail: dict[str, object] | None = None
) -> Callable[[Path], BotProcess]:
    """A spawn function for a fake bot process that says hello with ``jail`` as its
    report, then answers each message with the next of ``replies`` (raw bytes), whatever
    the message; ``SEQ`` in a reply becomes the ``seq`` of the message it answers."""
    for i, reply in enumerate(replies):
        (directory / f"reply{i}").write_bytes(reply)
    hello = json.dumps({"type": "sandbox", "jail": jail}).encode() + b"\n"
    script = (
        "import marshal, sys\n"
        "def frame():\n"
        "    size = int.from_bytes(sys.stdin.buffer.read(4), 'big')\n"
        "    return marshal.loads(sys.stdin.buffer.read(size))\n"
        f"sys.stdout.buffer.write({hello!r})\n"
        "sys.stdout.flush()\n"
        f"for i in range({len(replies)}):\n"
        "    seq = frame()['seq']\n"
        f"    reply = open({str(directory)!r} + f'/reply{{i}}', 'rb').read()\n"
        "    sys.stdout.buffer.write(reply.replace(b'SEQ', str(seq).encode()))\n"
        "    sys.stdout.flush()\n"
        "sys.stdin.buffer.read()\n"
    )

    def spawn(path: Path) -> BotProcess:
        popen = subprocess.Popen(
            [sys.executable, "-c", script],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        return BotProcess(popen)

    return spawn


READY = b'{"type": "ready", "protocol_version": %d, "name": "fake", "seq": SEQ}\n' % (
    PROTOCOL_VERSION
)


def start(driver: SubprocessDriver, seed: int = 1, seat: int = 0) -> Fault | None:
    game = Game.new(CONFIG, seed)
    observation = game.observe(seat, with_legal=False)
    return driver.start(seat, CONFIG, game.layout, seed, observation)
