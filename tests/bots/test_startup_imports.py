"""Every bot process imports ``bots.runtime`` and libseccomp before the bot: keep them free
of slow imports (networkx, subprocess via ctypes.util, pathlib, the rules engine's game
and rules: a bot reads observations; dataclasses with inspect: ``engine.valueclass``;
orjson, whose start-up imports dataclasses, inspect, uuid and datetime: the host's
messages are marshal; typing, json and re: annotations are strings, typing's run-time
names come from ``engine.static_typing``, the runtime writes its own JSON lines, the
jail's configuration is marshal and the board's tables a module) so a bot starts fast."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AVOIDED = (
    *("networkx", "subprocess", "shutil", "pathlib", "urllib.parse", "ctypes.util"),
    *("engine.game", "engine.rules"),
    *("orjson", "dataclasses", "inspect", "uuid", "datetime"),
    *("typing", "json", "re"),
)
CHILD = """
import builtins, sys
sys.path[:0] = sys.argv[1:3]
before = set(sys.modules)
importers, real_import = {}, builtins.__import__
def spy(name, globals=None, *args):
    importers.setdefault(name, set()).add((globals or {}).get("__name__", "?"))
    return real_import(name, globals, *args)
builtins.__import__ = spy
import bots.runtime
from bots.jail import _SeccompFilter
from bots.registry import load_player_class
load_player_class(sys.argv[3])
try:
    _SeccompFilter()  # built, not loaded: the test process stays unfiltered
    seccomp = "libseccomp.so.2"
except OSError as exc:
    seccomp = repr(exc)
builtins.__import__ = real_import
report = {
    "new": sorted(set(sys.modules) - before),
    "importers": {name: sorted(by) for name, by in importers.items()},
    "seccomp": seccomp,
}
import json  # after the count: the bot process itself does not import it
print(json.dumps(report))
"""


def test_the_bot_runtime_imports_nothing_slow() -> None:
    # -S: no site (the dev venv's editable-install finder would import pathlib first)
    bot = str(ROOT / "bots" / "builtin" / "random_bot.py")
    args = [sys.executable, "-I", "-S", "-c", CHILD, str(ROOT), sysconfig.get_paths()["purelib"]]
    out = subprocess.run([*args, bot], capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    assert "bots.runtime" in report["new"] and "engine" in report["new"]
    assert [m for m in AVOIDED if m in report["new"]] == []
    assert report["seccomp"] == "libseccomp.so.2" or "Error" in report["seccomp"]
