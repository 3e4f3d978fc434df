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


DOORS = ("api/*.py", "web/*.py", "*/admin.py", "*/management/commands/*.py")


def _app_error_classes() -> set[str]:
    """The names of every class of the platform that is an ``AppError`` (by its bases'
    names, followed to a fixed point), and Django's ``PermissionDenied``."""
    bases: dict[str, set[str]] = {}
    for path in APPS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = {b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in node.bases}
                bases.setdefault(node.name, set()).update(names)
    found = {"AppError"}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found | {"PermissionDenied"}
        found |= more


def test_no_door_translates_a_services_error_by_hand() -> None:
    """The API, the pages, the admin and the commands let a service's ``AppError`` reach
    their one mapping (api/errors.py, core/page_errors.py, core/commands.py)."""
    errors = _app_error_classes()
    assert {"TournamentError", "UploadTooLarge", "FairUseExceeded"} <= errors  # the scan works
    offenders = []
    for pattern in DOORS:
        for path in sorted(APPS.glob(pattern)):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            ours = {  # names this file imports from the platform (DRF has a NotFound too)
                alias.asname or alias.name
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom)
                and (node.module or "").startswith(("catan_arena", "django.core.exceptions"))
                for alias in node.names
            }
            for node in ast.walk(tree):
                if isinstance(node, ast.ExceptHandler) and node.type is not None:
                    caught = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
                    if caught & errors & ours:
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders
