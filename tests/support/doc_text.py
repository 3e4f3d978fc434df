"""What the docs and the site's templates show, read once for the docs tests
(``tests/test_docs.py``: every name exists; ``tests/test_doc_commands.py``: every command
line works as printed): the fenced blocks and code spans of README.md and docs/*.md, the
``<code>`` of the templates, and the parsers a command is checked against (``catan-arena``'s,
``manage.py``'s, the Makefile's targets)."""

from __future__ import annotations

import argparse
import html
import importlib.util
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from arena_cli.main import build_parser, expand

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
SHELL = ("", "sh", "bash", "shell", "console")
"""Info strings of the fenced blocks that hold command lines."""
PROGRAMS = ("catan-arena", "make", "manage.py", "python", "celery", "docker", "gunicorn")
PROGRAMS += ("curl", "pip", "export", "source", "openapi-python-client")
"""The programs a command line shown in the docs may start with (``.venv/bin/X`` is X)."""


def split_fences(text: str) -> tuple[str, list[str]]:
    """The prose (fenced blocks blanked) and the lines of the fenced blocks."""
    prose: list[str] = []
    lines: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            prose.append("")
            continue
        (lines if fenced else prose).append(line)
    return "\n".join(prose), lines


def spans(text: str) -> list[str]:
    """Inline code spans of the prose (they may wrap a line) and the fenced lines."""
    prose, fenced = split_fences(text)
    found = [" ".join(s.split()) for s in re.findall(r"`([^`]+)`", prose)]
    return found + [line.split("#", 1)[0].strip() for line in fenced]


@dataclass(frozen=True)
class Block:
    """A fenced block: its info string (``sh``, ``python``...), first line, lines."""

    info: str
    line: int
    lines: tuple[str, ...]


def blocks(text: str) -> list[Block]:
    """The fenced blocks of ``text``, their lines' indentation removed."""
    found: list[Block] = []
    opened: tuple[str, int, str] | None = None
    lines: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        if stripped.startswith("```"):
            if opened is None:
                indent = line[: len(line) - len(stripped)]
                opened, lines = (stripped[3:].strip(), number + 1, indent), []
            else:
                found.append(Block(opened[0], opened[1], tuple(lines)))
                opened = None
            continue
        if opened is not None:
            lines.append(line.removeprefix(opened[2]))
    return found


@dataclass(frozen=True)
class Shown:
    """A command line shown to a reader: where, and as printed."""

    where: str
    """``FILE:LINE`` (a block's first line for its commands)."""
    command: str
    block: tuple[str, ...] = ()
    """The command lines of its fenced block, in order (empty: inline or a template)."""

    def __str__(self) -> str:
        return f"{self.where}: {self.command}"


def program(command: str) -> str:
    """The program a command line runs (``.venv/bin/celery ...`` → ``celery``)."""
    first = command.split()[0] if command.split() else ""
    return first.rsplit("/", 1)[-1]


def is_command(text: str) -> bool:
    return program(text) in PROGRAMS


def shell_lines(block: Block) -> list[str]:
    """A shell block's command lines: comments cut, ``\\`` continuations joined."""
    commands: list[str] = []
    pending = ""
    for line in block.lines:
        line = re.sub(r"(^|\s)#\s.*$", "", line).rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        if (pending + line).strip():
            commands.append(" ".join((pending + line).split()))
        pending = ""
    return commands


def shown_in_docs(doc: Path, text: str) -> Iterator[Shown]:
    """The command lines ``text`` shows: every line of its shell blocks (an unlabelled
    block counts when all its lines are commands) and its code spans that are commands."""
    label = str(doc.relative_to(ROOT))
    for block in blocks(text):
        lines = shell_lines(block)
        if block.info not in SHELL or not lines:
            continue
        if block.info == "" and not all(is_command(c) for c in lines):
            continue  # text, not commands
        for command in lines:
            yield Shown(f"{label}:{block.line}", command, tuple(lines))
    prose, _ = split_fences(text)
    for match in re.finditer(r"`([^`]+)`", prose):
        span = " ".join(match.group(1).split())
        if is_command(span):
            yield Shown(f"{label}:{prose.count(chr(10), 0, match.start()) + 1}", span)


TEMPLATE_VALUE = "7"
"""What a template's ``{{ variable }}`` shows in a command (a match's id, a step)."""


def shown_in_template(path: Path, text: str | None = None) -> Iterator[Shown]:
    """The ``<code>`` of a template (``text``, or the file's) that is a command, as a
    reader sees it (tags dropped, ``{{ ... }}`` filled with :data:`TEMPLATE_VALUE`)."""
    text = path.read_text(encoding="utf-8") if text is None else text
    for match in re.finditer(r"<code>(.*?)</code>", text, re.S):
        shown = re.sub(r"\{\{.*?\}\}", TEMPLATE_VALUE, match.group(1))
        shown = html.unescape(re.sub(r"<[^>]+>", "", shown))
        if is_command(shown):
            line = text.count("\n", 0, match.start()) + 1
            yield Shown(f"{path.relative_to(ROOT)}:{line}", " ".join(shown.split()))


def everything_shown() -> list[Shown]:
    """Every command line of README.md, docs/*.md and the templates."""
    found = [s for doc in DOCS for s in shown_in_docs(doc, doc.read_text(encoding="utf-8"))]
    return found + [s for path in TEMPLATES for s in shown_in_template(path)]


# What a command is checked against ---------------------------------------------------------


@cache
def manage_commands() -> frozenset[str]:
    """Commands of the project's apps and of every installed Django app."""
    roots = [ROOT / "platform" / "catan_arena"]
    for package in ("django", "rest_framework", "drf_spectacular", "axes"):
        spec = importlib.util.find_spec(package)
        if spec and spec.origin:
            roots.append(Path(spec.origin).parent)
    return frozenset(
        p.stem for root in roots for p in root.rglob("management/commands/*.py") if p.stem[0] != "_"
    )


@cache
def make_targets() -> frozenset[str]:
    text = (ROOT / "Makefile").read_text()
    return frozenset(re.findall(r"^([a-z][a-z0-9-]*):", text, re.M))


def cli_problem(words: str) -> str | None:
    """Why ``catan-arena WORDS`` would not parse as a subcommand with its flags (None: it
    does). Placeholders (FILE, ID, BOT...) are not checked, the subcommands and flags are."""
    given = re.sub(r"[\[\]|`]", " ", words).split()
    sub = subparsers(build_parser())
    if len(given) > 1 and re.fullmatch(r"[a-z][a-z-]*", given[1]) and given[0] in sub:
        nested = subparsers(sub[given[0]])
        if nested and given[1] not in nested:  # a word, not a file: a subcommand meant
            return f"{given[0]} has no subcommand {given[1]!r}"
    argv = expand(given)
    if not argv or argv[0] not in sub:
        return f"no subcommand {argv[:1]}"
    chosen = sub[argv[0]]
    nested = subparsers(chosen)
    if nested:
        if len(argv) < 2 or argv[1] not in nested:
            return f"{argv[0]} has no subcommand {argv[1:2]}"
        chosen = nested[argv[1]]
    flags = {s for action in chosen._actions for s in action.option_strings}
    wrong = [w.split("=")[0] for w in argv if w.startswith("--") and w.split("=")[0] not in flags]
    return f"{argv[0]} has no flag {wrong}" if wrong else None


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's subcommands by name (none: empty)."""
    for action in parser._actions:
        if isinstance(action.choices, dict):
            return dict(action.choices)
    return {}
