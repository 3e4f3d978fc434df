"""Project-wide guards: the engine stays pure, the stdlib ``platform`` is not shadowed."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_ENGINE_IMPORTS = {"networkx"}


def test_platform_folder_is_not_a_package() -> None:
    assert not (ROOT / "platform" / "__init__.py").exists()
    assert not (ROOT / "platform.py").exists()


def test_stdlib_platform_module_is_the_real_one() -> None:
    import platform

    assert hasattr(platform, "python_version"), platform


def test_engine_imports_only_stdlib_and_networkx() -> None:
    stdlib = set(sys.stdlib_module_names)
    offenders = []
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top not in stdlib and top != "engine" and top not in ALLOWED_ENGINE_IMPORTS:
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders, offenders


def test_importing_engine_loads_no_django() -> None:
    code = "import sys, engine, engine.replay, engine.perf; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_stdlib_platform_wins_from_the_repository_root() -> None:
    # the repository root holds a platform/ folder (the Django source root): run from
    # there, `import platform` must still be the standard library's (uuid needs it)
    code = "import uuid, platform; print(platform.system(), platform.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("Linux") and "site-packages" not in out and str(ROOT) not in out


def test_the_platform_package_installs_from_its_source_root() -> None:
    import catan_arena

    assert Path(catan_arena.__file__).parent == ROOT / "platform" / "catan_arena"
