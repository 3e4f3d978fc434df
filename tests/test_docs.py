"""Docs that cannot drift: every path, module, ``manage.py`` command, ``catan-arena``
subcommand (and its flags), ``make`` target and environment variable that README.md and
docs/*.md name exists; every variable the code reads is in the README's table, and every
row of that table is read; the variables of the tests and benchmarks are named in the
docs. A control feeds the checks planted wrong names."""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.support.doc_text import (
    DOCS,
    ROOT,
    cli_problem,
    make_targets,
    manage_commands,
    spans,
    split_fences,
)

PRODUCT = ("engine", "bots", "arena_runner", "arena_cli", "platform/catan_arena", "manage.py")
"""The code whose environment variables the README's table lists."""
OTHER_CODE = ("tests", "benchmarks")
"""Code that reads variables of its own (the test suite's, a benchmark's)."""
PACKAGES = ("engine", "bots", "arena_runner", "arena_cli", "catan_arena", "tests", "benchmarks")
APPS = (
    "accounts",
    "submissions",
    "matches",
    "ratings",
    "ladder",
    "tournaments",
    "abtests",
    "api",
    "web",
    "core",
    "embedded",
)
"""Apps the docs name without their ``catan_arena.`` prefix (``matches.services``)."""
GENERATED = (".data", ".cache", ".venv", ".artifacts", "match-")
"""What the commands make (the data folder, the bots' venv, benchmark reports,
downloads): not in git."""
PLACEHOLDERS = ("my_", "my-")
"""An author's own files in examples (``my_bot.py``)."""
READERS = {"env_str", "env_path", "env_bool", "env_choice", "env_int", "env_float", "raw"}
READERS |= {"positive_int", "positive_float"}  # settings' bounded readers
ENV_NAME = re.compile(r"\b((?:CATAN|DJANGO)_[A-Z0-9_]*[A-Z0-9]|[A-Z][A-Z0-9_]*_URL)\b(?!_?\*)")
PATH_SUFFIXES = (".py", ".md", ".json", ".yml", ".yaml", ".toml", ".html", ".css", ".js", ".txt")


@dataclass(frozen=True)
class Named:
    doc: str
    kind: str
    name: str

    def __str__(self) -> str:
        return f"{self.doc}: {self.kind} {self.name!r}"


# What the docs say ---------------------------------------------------------------------


def named(doc: Path, text: str) -> Iterator[Named]:
    """Every checkable name ``text`` mentions."""
    label = str(doc.relative_to(ROOT))
    prose, _ = split_fences(text)
    for target in re.findall(r"\]\(([^)\s]+)\)", prose):
        if not re.match(r"[a-z]+:|#", target):
            yield Named(label, "link", target.split("#")[0])
    for span in spans(text):
        for name in ENV_NAME.findall(span):
            yield Named(label, "variable", name)
        for command in re.findall(r"manage\.py\s+([a-z_]+)", span):
            yield Named(label, "manage.py command", command)
        for target in re.findall(r"^make\s+([a-z][a-z0-9-]*)", span):
            yield Named(label, "make target", target)
        for module in re.findall(r"-m\s+([a-z_][\w.]*)", span):
            yield Named(label, "module", module)
        cli = re.search(r"(?:^|[\s(])catan-arena\s+(.*)", span)
        if cli:
            yield Named(label, "catan-arena command", cli.group(1).strip())
        if " " not in span:
            yield from _token(label, span)


def _token(label: str, token: str) -> Iterator[Named]:
    token = token.rstrip(".,:;")
    if "://" in token or token.startswith(("/", "$", "-", "~")) or re.search(r"[<>*{}[\]=]", token):
        return
    bare = re.sub(r"\(.*\)$", "", token)
    if _looks_like_a_path(token):
        yield Named(label, "path", token)
    elif re.fullmatch(r"[a-z_][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+", bare) and bare.split(".")[
        0
    ] in (*PACKAGES, *APPS):
        yield Named(label, "module", bare)


def _looks_like_a_path(token: str) -> bool:
    """A folder (``x/``), a file with a known suffix, or anything under a top-level entry
    of the repository; not ``fork/clone`` (syscalls), ``30/hour`` (a rate), ``.py``."""
    if "(" in token or re.fullmatch(r"\.\w+", token) or token.startswith(PLACEHOLDERS):
        return False
    file = token.split("::")[0]
    if file.endswith(PATH_SUFFIXES) or (file.endswith("/") and "/" in file[:-1] + "/"):
        return True
    return "/" in file and (file.startswith("…/") or (ROOT / file.split("/")[0]).exists())


def everything_named() -> list[Named]:
    return [n for doc in DOCS for n in named(doc, doc.read_text(encoding="utf-8"))]


# What there is -------------------------------------------------------------------------


@cache
def repo_paths() -> frozenset[str]:
    """Every file git knows and every folder above one, relative to the root."""
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    paths = set(files)
    for file in files:
        parts = file.split("/")
        paths.update("/".join(parts[:i]) for i in range(1, len(parts)))
    return frozenset(p for p in paths if (ROOT / p).exists())


@cache
def by_name() -> dict[str, list[str]]:
    """The repository's paths by their last part."""
    index: dict[str, list[str]] = {}
    for path in repo_paths():
        index.setdefault(path.rsplit("/", 1)[-1], []).append(path)
    return index


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def path_exists(doc: str, path: str) -> bool:
    """``path`` (relative to the root, the doc, or any folder: ``queues.py``, ``…/core/``)
    exists; ``FILE::test`` names a test that FILE defines."""
    path, _, test = path.partition("::")
    clean = path.removeprefix("…/").removeprefix("./").rstrip("/")
    if clean.startswith(GENERATED) or not clean:
        return True
    near = (ROOT / doc).parent / clean
    found = [near] if near.exists() else []
    tail = clean.rsplit("/", 1)[-1]
    found += [ROOT / p for p in by_name().get(tail, ()) if p == clean or p.endswith("/" + clean)]
    if test:
        return any(f.is_file() and defines(f, test.split("::")) for f in found)
    return bool(found)


def module_file(dotted: str) -> tuple[Path, list[str]] | None:
    """The file of the longest importable prefix of ``dotted`` and the rest."""
    parts = dotted.split(".")
    if parts[0] in APPS:
        parts = ["catan_arena", *parts]
    for cut in range(len(parts), 0, -1):
        base = Path(*parts[:cut])
        for root in (ROOT, ROOT / "platform"):
            for candidate in (root / base / "__init__.py", root / f"{base}.py"):
                if candidate.is_file():
                    return candidate, parts[cut:]
            if (root / base).is_dir() and cut == len(parts):
                return root / base, []
    return None


def defines(path: Path, attributes: list[str]) -> bool:
    """Whether the module at ``path`` defines ``attributes`` (a name, then names in it)."""
    if not attributes or path.is_dir():
        return not attributes
    body: list[ast.stmt] = parsed(path).body
    for name in attributes:
        found = [node for node in body if name in _names(node)]
        if not found:
            return False
        body = found[0].body if isinstance(found[0], ast.ClassDef) else []
        if isinstance(found[0], ast.ImportFrom):
            return True  # re-exported: the name is imported there
    return True


def _names(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.If | ast.Try):
        return {n for child in node.body for n in _names(child)}
    return set()


def module_exists(dotted: str) -> bool:
    found = module_file(dotted)
    if found is None:
        return importlib.util.find_spec(dotted.split(".")[0]) is not None and "." not in dotted
    return defines(*found)


# Environment variables the code reads ------------------------------------------------


def _python_files(*roots: str, having: str = "") -> Iterator[Path]:
    """The Python files under ``roots`` whose text matches the pattern ``having``."""
    for root in roots:
        path = ROOT / root
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            if re.search(having, file.read_text(encoding="utf-8"), re.M):
                yield file


@cache
def constants() -> dict[str, set[str]]:
    """Module-level ``NAME = "TEXT"`` constants of all code, by name."""
    found: dict[str, set[str]] = {}
    for path in _python_files(*PRODUCT, *OTHER_CODE, having=r"^\w+ = \"[A-Z][A-Z0-9_]+\""):
        for node in parsed(path).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for target in node.targets:
                    if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                        found.setdefault(target.id, set()).add(node.value.value)
    return found


@cache
def variables_read(*roots: str) -> set[str]:
    """Names passed to ``os.environ.get/[]/setdefault/pop``, ``os.getenv`` and the
    strict readers (``arena_runner.env``), literally or through a module constant."""
    read: set[str] = set()
    calls = "|".join(["environ", "getenv", *READERS])
    for path in _python_files(*roots, having=rf"\b({calls})\b"):
        for node in ast.walk(parsed(path)):
            key: ast.expr | None = None
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                owner = ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""
                environ = owner.endswith("environ") and name in ("get", "setdefault", "pop")
                if environ or name == "getenv" or (name in READERS and owner in ("", "env")):
                    key = node.args[0]
            elif (
                isinstance(node, ast.Subscript)
                and isinstance(node.ctx, ast.Load)
                and ast.unparse(node.value).endswith("os.environ")
            ):
                key = node.slice
            read |= _resolve(key)
    return {name for name in read if re.fullmatch(r"[A-Z][A-Z0-9_]+", name)}


def _resolve(key: ast.expr | None) -> set[str]:
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        return {key.value}
    if isinstance(key, ast.Name | ast.Attribute):
        return constants().get(key.id if isinstance(key, ast.Name) else key.attr, set())
    return set()


def readme_table() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Configuration reference") :].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split("|")[1])}


def compose_variables() -> set[str]:
    text = (ROOT / "docker-compose.yml").read_text() + (ROOT / "Dockerfile").read_text()
    return set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", text)) | set(re.findall(r"\b([A-Z_]+)=", text))


# The checks ------------------------------------------------------------------------------


def problems(items: list[Named]) -> list[str]:
    known = variables_read(*PRODUCT, *OTHER_CODE) | compose_variables()
    wrong = []
    for item in items:
        ok = {
            "link": lambda i: path_exists(i.doc, i.name),
            "path": lambda i: path_exists(i.doc, i.name),
            "module": lambda i: module_exists(i.name),
            "manage.py command": lambda i: i.name in manage_commands(),
            "make target": lambda i: i.name in make_targets(),
            "variable": lambda i: i.name in known,
            "catan-arena command": lambda i: cli_problem(i.name) is None,
        }[item.kind](item)
        if not ok:
            why = cli_problem(item.name) if item.kind == "catan-arena command" else "missing"
            wrong.append(f"{item}: {why}")
    return wrong


def test_everything_the_docs_name_exists() -> None:
    items = everything_named()
    kinds = {i.kind for i in items}
    assert kinds >= {"path", "module", "manage.py command", "catan-arena command", "variable"}
    assert not problems(items), "\n".join(problems(items))


def test_every_variable_the_code_reads_is_in_the_readme_table() -> None:
    read, table = variables_read(*PRODUCT), readme_table()
    assert {"DATABASE_URL", "CATAN_SANDBOX_REQUIRE_CGROUPS", "CATAN_JAIL"} <= read
    assert not read - table, f"read by the code, not in the README's table: {read - table}"
    assert not table - read, f"in the README's table, read by no code: {table - read}"


TOOLS_VARIABLES = {"CI", "PYTEST_XDIST_WORKER", "PATH"}
"""Set by the CI, by pytest-xdist and by the shell, not by a person for this project."""
SELF_SET = {"CATAN_TEST_ENV_READER"}
"""Set and read by one test alone (the strict reader's own test)."""


def test_every_variable_the_tests_and_benchmarks_read_is_documented() -> None:
    """Variables of the test suite and the benchmarks are not settings, but a person may
    set them: the docs name each (the README's test section, RELIABILITY)."""
    text = "".join(doc.read_text(encoding="utf-8") for doc in DOCS)
    own = variables_read(*OTHER_CODE) - variables_read(*PRODUCT) - TOOLS_VARIABLES - SELF_SET
    assert own, "the scan found none: it is broken"
    assert not {v for v in own if f"`{v}" not in text}, own


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("`CATAN_ARENA_TIME_BANK_SECOND`", "variable"),
        ("`engine/chances.py`", "path"),
        ("see [sandbox](docs/sandboxing.md)", "link"),
        ("`engine.chance.NoSuchStream`", "module"),
        ("`matches.services.create_round_robin`", "module"),
        ("`manage.py recompute_rating`", "manage.py command"),
        ("`catan-arena replay fetch 12`", "catan-arena command"),
        ("`catan-arena play random random random --game 3`", "catan-arena command"),
        ("```\nmake test-slowest\n```", "make target"),
    ],
)
def test_a_planted_wrong_name_is_caught(text: str, kind: str) -> None:
    items = list(named(ROOT / "README.md", text))
    assert [i.kind for i in items] == [kind]
    assert problems(items), f"{text!r} passed the check"


def test_the_right_names_pass() -> None:
    text = (
        "`CATAN_ARENA_TIME_BANK_SECONDS` `engine/chance.py` [s](docs/sandbox.md) "
        "`engine.chance.roll_dice()` `manage.py recompute_ratings` "
        "`catan-arena replay download 12` `catan-arena play a b c --games 3`"
    )
    items = list(named(ROOT / "README.md", text))
    assert len(items) == 7 and not problems(items), problems(items)


def package_caps_problems(guide: str, readme: str) -> list[str]:
    """Where the docs' package caps differ from the code's (one definition:
    ``arena_runner.validation_policy.UPLOAD_CAPS``): the bot guide says them once, in
    ``caps_text``'s words, and no other size or file count; the README's table gives
    the same defaults."""
    from arena_runner.validation_policy import UPLOAD_CAPS, caps_text

    said = caps_text(UPLOAD_CAPS)
    wrong = [] if guide.count(said) == 1 else [f"the guide says {said!r} {guide.count(said)} times"]
    others = re.findall(r"\d+ (?:MiB|KiB|bytes)|\d+ files", guide.replace(said, ""))
    wrong += [f"the guide gives other caps: {others}"] if others else []
    mib = UPLOAD_CAPS.archive_bytes >> 20, UPLOAD_CAPS.unpacked_bytes >> 20, UPLOAD_CAPS.files
    rows = {
        "CATAN_ARENA_UPLOAD_MAX_BYTES": f"| {mib[0]} MiB |",
        "CATAN_ARENA_UPLOAD_MAX_FILES": f"| {mib[1]} MiB / {mib[2]} |",
    }
    for name, default in rows.items():
        row = next((line for line in readme.splitlines() if f"`{name}`" in line), "")
        if default not in row:
            wrong.append(f"README's row of {name} does not give {default!r}: {row!r}")
    return wrong


def test_the_docs_package_caps_are_the_codes() -> None:
    guide = (ROOT / "docs" / "bot-guide.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not package_caps_problems(guide, readme), package_caps_problems(guide, readme)
    planted = guide + "\n`play` holds a package to 16 MiB, 64 MiB and 500 files.\n"
    assert package_caps_problems(planted, readme)  # control: the guide's old second set
    assert package_caps_problems(guide, readme.replace("| 4 MiB |", "| 8 MiB |"))
