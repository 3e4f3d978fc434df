"""Every bot process imports ``bots.runtime`` and pyseccomp before the bot: keep them free
of slow imports (networkx, subprocess via ctypes.util, pathlib, the rules engine's game
and rules: a bot reads observations; dataclasses with inspect: ``engine.valueclass``;
orjson, whose start-up imports dataclasses, inspect, uuid and datetime: the host's
messages are marshal, the replies the stdlib's JSON) so a bot starts fast."""

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
)
CHILD = """
import builtins, ctypes, json, sys
sys.path[:0] = sys.argv[1:3]
before = set(sys.modules)
importers, real_import = {}, builtins.__import__
def spy(name, globals=None, *args):
    importers.setdefault(name, set()).add((globals or {}).get("__name__", "?"))
    return real_import(name, globals, *args)
builtins.__import__ = spy
import bots.runtime
from bots.jail import _fast_find_library
from bots.registry import load_player_class
load_player_class(sys.argv[3])
try:
    with _fast_find_library():
        import pyseccomp
    seccomp = pyseccomp._libseccomp_path
except (ImportError, OSError) as exc:
    seccomp = repr(exc)
builtins.__import__ = real_import
print(json.dumps({
    "new": sorted(set(sys.modules) - before),
    "importers": {name: sorted(by) for name, by in importers.items()},
    "seccomp": seccomp,
    "util_left": hasattr(ctypes, "util"),
}))
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
    assert not report["util_left"]


def test_the_real_ctypes_util_still_works_after_the_stand_in() -> None:
    code = (
        "import sys; from bots.jail import _fast_find_library\n"
        "with _fast_find_library(): import pyseccomp\n"
        "import ctypes.util; print(ctypes.util.find_library('c'), 'subprocess' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    library, loaded = out.stdout.split()
    assert library.startswith("libc.so") and loaded == "True"
