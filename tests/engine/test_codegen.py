"""The engine's generated code is compiled once per machine (``engine.codegen``): a process
finding the cache compiles none of it and plays exactly as one that compiled it all; a
missing, corrupt or foreign cache is ignored."""

from __future__ import annotations

import json
import marshal
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import builtins, json, sys
sys.path.insert(0, sys.argv[1])
real_compile, compiled = builtins.compile, []
def counting(source, filename, *args, **kwargs):
    if filename == "<generated>":
        compiled.append(source)
    return real_compile(source, filename, *args, **kwargs)
builtins.compile = counting
from engine import Game, RulesConfig
import engine.observation_stream, engine.codegen
game = Game.new(RulesConfig(), 7)
while not game.is_over:
    game.apply(game.legal_actions()[-1])
    copy = game.copy()
saved = engine.codegen.write_cache() if sys.argv[2] == "write" else None
print(json.dumps({"compiled": len(compiled), "saved": saved,
                  "end": [game.state.turn, list(game.observe(0).visible_points)]}))
"""


def _engine_copy(tmp_path: Path) -> Path:
    shutil.copytree(
        ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path / "engine" / "__pycache__" / f"codegen.{sys.implementation.cache_tag}.marshal"


def _run(tmp_path: Path, mode: str = "read") -> dict[str, object]:
    args = [sys.executable, "-I", "-B", "-c", CHILD, str(tmp_path), mode]
    out = subprocess.run(args, capture_output=True, text=True, check=True, timeout=120)
    report: dict[str, object] = json.loads(out.stdout)
    return report


def test_a_process_with_the_cache_compiles_nothing_and_plays_the_same(tmp_path: Path) -> None:
    cache = _engine_copy(tmp_path)
    first = _run(tmp_path, "write")
    assert first["compiled"] > 0 and first["saved"] is True and cache.exists()  # type: ignore[operator]
    second = _run(tmp_path)
    assert second["compiled"] == 0
    assert second["end"] == first["end"]
    assert _run(tmp_path, "write")["saved"] is False  # nothing new: the file is not rewritten


def test_control_without_the_cache_every_generated_source_is_compiled(tmp_path: Path) -> None:
    _engine_copy(tmp_path)
    assert _run(tmp_path)["compiled"] > 0  # type: ignore[operator]


def test_a_corrupt_or_foreign_cache_is_ignored(tmp_path: Path) -> None:
    cache = _engine_copy(tmp_path)
    reference = _run(tmp_path, "write")
    table = marshal.loads(cache.read_bytes())[1]
    for content in (b"\x00garbage", marshal.dumps((b"\x00\x00\r\n", table)), b""):
        cache.write_bytes(content)
        report = _run(tmp_path)
        assert report["compiled"] == reference["compiled"]
        assert report["end"] == reference["end"]
