"""Guards of the platform's layers (docs/ARCHITECTURE.md): each app imports only the
apps below it (import-linter's contract in pyproject.toml: accounts → submissions →
matches → ratings → ladder → tournaments | abtests → api | web | embedded, core below
them all; imports inside functions count), and migrations import no live code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
APPS = ROOT / "platform" / "catan_arena"


def test_apps_import_only_the_layers_below_them(capsys: pytest.CaptureFixture[str]) -> None:
    code = lint_imports(str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert code == 0, report
    assert "1 kept, 0 broken" in report, report  # the contract was read and checked


def test_migrations_import_no_live_code() -> None:
    """A migration is history: what it needs is frozen in it (a later change to
    ``accounts.roles`` must not rewrite what migration 0004 did)."""
    offenders = []
    for path in sorted(APPS.glob("*/migrations/*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = ["." * node.level + (node.module or "")]
            offenders += [
                f"{path.relative_to(ROOT)}: {name}"
                for name in names
                if name.startswith((".", "catan_arena", "engine", "bots", "arena_"))
            ]
    assert not offenders, offenders
