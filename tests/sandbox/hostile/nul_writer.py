"""Hostile: every string it can send is poisoned — its name, its exception text and the
traceback (NUL, terminal escapes, bidi overrides, 1 MB of junk) and its stderr log."""

import sys

from bots import Player

PARAMS: dict = {}
POISON = "a\x00b\x1b]52;c;cGF3bmVk\x07\x1b[2J\u202e\x9b31m" + "J" * 1_000_000


class NulWriter(Player):
    name = "nul\x00name\x1b[2J" + "N" * 500

    def act(self, observation):
        sys.stderr.write(POISON[:2000] + "\n")
        sys.stderr.flush()
        raise RuntimeError(POISON)
