"""Bot sources the tests upload: a valid weak bot, invalid ones with the error each
gives, and zips of files as given."""

from __future__ import annotations

import io
import zipfile

VALID_BOT = b'''
from bots import Player


class Wanderer(Player):
    """A random legal action, never a trade offer (a valid, weak bot)."""

    def act(self, observation):
        legal = observation.legal_actions
        plain = [a for a in legal if type(a).__name__ != "ProposeTrade"] or legal
        return self.rng.choice(plain)
'''

SOURCES = {
    "syntax error": (b"from bots import Player\nclass Broken(Player:\n    pass\n", "SyntaxError"),
    "no Player": (b"X = 1\n", "found 0"),
    "two Players": (
        b"from bots import Player\n"
        b"class A(Player):\n    def act(self, o):\n        return o.legal_actions[0]\n"
        b"class B(Player):\n    def act(self, o):\n        return o.legal_actions[0]\n",
        "found 2",
    ),
    "crash at import": (b"raise RuntimeError('boom at import')\n", "boom at import"),
}


def make_zip(files: dict[str, bytes], *, symlinks: tuple[str, ...] = ()) -> bytes:
    """A zip of ``files`` (names as given, unchecked) and symlink entries."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
        for name in symlinks:
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o120777 << 16) | 0x20
            info.create_system = 3
            zf.writestr(info, "/etc/passwd")
    return buffer.getvalue()
