"""Every command line shown works as printed: each command line of README.md, docs/*.md
and the site's templates (:func:`tests.support.doc_text.everything_shown`) is checked by
its program's check below, and a program without one fails the test.

- ``catan-arena``: a usage (with arguments) parses with the real parser, placeholders
  (``FILE``, ``N``) standing for values and ``[optional]`` parts both left out and given;
  a mention (``catan-arena play --in-process``) names a subcommand and flags that exist;
  ``--help`` of every subcommand shown lists the flags shown; and the ones that need no
  server and have no placeholder are run for real, a shell block's lines in order in one
  empty folder holding what the guide says is there (``my_bot.py``, the guide's own
  code; ``match-1234.json``, a replay; ``match-123-step-240.json``, a position cut by the
  site's own ``cut_at``).
- ``make``: ``make -n`` with the same targets and variables (a dry run: what it would do).
- ``manage.py``: parses with the command's own parser.
- ``python -m``, ``celery``, ``gunicorn``: the module exists; ``python -m
  arena_runner.sandbox`` runs; ``celery ... --help`` and ``gunicorn ... --check-config``
  run with the options shown.
- ``docker compose``: the services named exist in docker-compose.yml (docker itself is not
  on a test machine; tests/platform/test_compose.py validates the file), the command run
  inside is checked as its own.
- ``curl``: the API path resolves; ``pip install -e '.[X]'``: the extra exists;
  ``export``: valid shell (the names are tests/test_docs.py's); ``source``: the file exists.

The controls are the two examples that were printed wrong: the upload page's
``catan-arena upload NAME FILE`` and the guide's ``catan-arena replay replays/game-0.json``.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml

from arena_cli.main import build_parser, expand
from tests.support.doc_text import (
    ROOT,
    Shown,
    blocks,
    cli_problem,
    everything_shown,
    program,
    shown_in_docs,
    shown_in_template,
    subparsers,
)
from tests.support.serve_tree import embedded_env

BIN = Path(sys.executable).parent
PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]*")
"""A word the reader replaces (``FILE``, ``N``, ``BOT_FILE``), unless a choice (``FULL``)."""
LOCAL = {("validate",), ("play",), ("replay", "check")}
"""``catan-arena`` subcommands that need no server: run for real when printed in full."""
RUN_MODULES = {"arena_runner.sandbox"}
"""``python -m`` modules cheap and harmless to run (``engine.board`` rewrites a file)."""


@cache
def shown() -> tuple[Shown, ...]:
    return tuple(everything_shown())


def of(*programs: str) -> list[Shown]:
    return [s for s in shown() if program(s.command) in programs]


def report(problems: list[str]) -> str:
    return "\n".join(problems)


# How a command line is read ------------------------------------------------------------


def variants(words: list[str], choices: set[str]) -> list[list[str]]:
    """The argument lists a synopsis stands for: its ``[optional]`` parts left out, and
    each given (its first ``a | b`` alternative); ``...`` dropped; placeholders filled."""
    text = " ".join(words)
    short = re.sub(r"\[[^\[\]]*\]", " ", text)
    full = re.sub(r"\[([^\[\]]*)\]", lambda m: m.group(1).split("|")[0], text)
    found = []
    for variant in dict.fromkeys((short, full)):
        argv = variant.replace("...", " ").replace("…", " ").split()
        found.append(["1" if PLACEHOLDER.fullmatch(w) and w not in choices else w for w in argv])
    return found


def has_placeholder(words: list[str], choices: set[str]) -> bool:
    return any(
        (PLACEHOLDER.fullmatch(w) and w not in choices) or w in ("...", "…") or "[" in w
        for w in words
    )


def all_choices(parser: Any) -> set[str]:
    found: set[str] = set()
    for action in parser._actions:
        if isinstance(action.choices, dict):
            for sub in action.choices.values():
                found |= all_choices(sub)
        elif action.choices:
            found |= {str(c) for c in action.choices}
    return found


def positionals(parser: Any, words: list[str]) -> list[str]:
    """The words of ``words`` that are not flags or a flag's value."""
    found: list[str] = []
    value = False
    for word in words:
        if value:
            value = False
        elif word.startswith("-"):
            action = parser._option_string_actions.get(word.split("=")[0])
            value = action is not None and action.nargs != 0 and "=" not in word
        else:
            found.append(word)
    return found


def parse_error(parser: Any, argv: list[str]) -> str | None:
    """Why ``parser`` refuses ``argv`` (argparse's or Django's message), or None."""
    from django.core.management.base import CommandError

    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            parser.parse_args(argv)
    except SystemExit as exc:
        return (err.getvalue().strip().splitlines() or ["exit"])[-1] if exc.code else None
    except CommandError as exc:
        return str(exc)
    return None


def cli_path(argv: list[str]) -> tuple[tuple[str, ...], Any]:
    """The subcommand path of ``catan-arena ARGV`` (``("replay", "check")``), its parser."""
    chosen, path = build_parser(), []
    for word in argv[:2]:
        nested = subparsers(chosen)
        if word not in nested:
            break
        chosen, path = nested[word], [*path, word]
    return tuple(path), chosen


def cli_usage_problem(command: str) -> str | None:
    """Why ``catan-arena ...`` as printed would not run (None: it parses)."""
    words = shlex.split(command)[1:]
    if not words:
        return None
    named = cli_problem(" ".join(words))
    if named:
        return named
    choices = all_choices(build_parser())
    for argv in variants(words, choices):
        argv = expand(argv)
        path, parser = cli_path(argv)
        if not positionals(parser, argv[len(path) :]):
            continue  # a mention of the subcommand (and its flags), checked above
        error = parse_error(build_parser(), argv)
        if error:
            return f"`catan-arena {' '.join(argv)}`: {error}"
    return None


def manage_problem(command: str) -> str | None:
    """Why ``... manage.py NAME ARGS`` would not parse with that command's parser."""
    from django.core.management import get_commands, load_command_class

    words = shlex.split(command)
    words = words[words.index("manage.py") + 1 :] if "manage.py" in words else words
    if not words:
        return None  # the file itself (`manage.py` at the top)
    app = get_commands().get(words[0])
    if app is None:
        return f"no manage.py command {words[0]!r}"
    parser = load_command_class(app, words[0]).create_parser("manage.py", words[0])
    for argv in variants(words[1:], all_choices(parser)):
        error = parse_error(parser, argv)
        if error:
            return f"`manage.py {words[0]} {' '.join(argv)}`: {error}"
    return None


# Running what can run ------------------------------------------------------------------


def environment(data: Path) -> dict[str, str]:
    """A reader's shell: the project's venv first on PATH, no platform setting (the
    embedded default, its data in a folder of the test's own)."""
    return embedded_env(data, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")


def run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def runnable(command: str) -> bool:
    """A ``catan-arena`` command that needs no server, printed in full."""
    words = shlex.split(command)[1:]
    argv = expand(words)
    path, parser = cli_path(argv)
    return (
        path in LOCAL
        and not has_placeholder(words, all_choices(build_parser()))
        and bool(positionals(parser, argv[len(path) :]))
    )


def first_bot() -> str:
    """The guide's first bot (``my_bot.py`` in "Five minutes to a first bot")."""
    guide = (ROOT / "docs" / "bot-guide.md").read_text(encoding="utf-8")
    code = [b for b in blocks(guide) if b.info == "python" and "class MyBot" in "".join(b.lines)]
    return "\n".join(code[0].lines) + "\n"


@pytest.fixture(scope="module")
def a_replay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A whole game's replay, as ``catan-arena play --replays`` writes it."""
    folder = tmp_path_factory.mktemp("replays")
    argv = ["play", "random", "random", "random", "random", "--games", "1", "--seed", "3"]
    done = run(shlex.join(["catan-arena", *argv, "--in-process", "--replays", "."]), folder,
               environment(folder))  # fmt: skip
    assert done.returncode == 0, done.stderr
    [file] = folder.glob("game-*.json")
    data: dict[str, Any] = orjson.loads(file.read_bytes())
    return data


def lay_out(folder: Path, command: str, replay: dict[str, Any]) -> None:
    """Put in ``folder`` the files ``command`` names that the docs say the reader has:
    their bot (the guide's), a downloaded replay, a "continue from here" position."""
    from catan_arena.web.views import cut_at

    for word in shlex.split(command):
        target = folder / word
        if target.exists() or "/" in word:
            continue
        if re.fullmatch(r"my_bot\w*\.py", word):
            target.write_text(first_bot(), encoding="utf-8")
        elif found := re.fullmatch(r"match-(\d+)-step-(\d+)\.json", word):
            step = int(found.group(2))
            assert len(replay["steps"]) >= step, "the test's game is too short"
            target.write_bytes(orjson.dumps(cut_at(replay, step, match_id=int(found.group(1)))))
        elif re.fullmatch(r"match-\d+\.json", word):
            target.write_bytes(orjson.dumps(replay))


def run_as_printed(
    commands: list[str], folder: Path, replay: dict[str, Any]
) -> Iterator[tuple[str, subprocess.CompletedProcess[str]]]:
    """Run the runnable ``commands`` in order in ``folder`` (an empty folder first)."""
    env = environment(folder / ".data")
    for command in commands:
        if program(command) == "catan-arena" and runnable(command):
            lay_out(folder, command, replay)
            yield command, run(command, folder, env)


def failures(
    shown_here: list[Shown], tmp_path: Path, replay: dict[str, Any]
) -> tuple[list[str], int]:
    """Run every runnable command of ``shown_here`` (a block's together, in order);
    what failed, and how many ran."""
    problems, ran = [], 0
    groups: dict[tuple[str, ...], Shown] = {}
    for item in shown_here:
        groups.setdefault(item.block or (item.command, item.where), item)
    for i, (key, item) in enumerate(groups.items()):
        folder = tmp_path / f"reader-{i}"
        folder.mkdir()
        lines = list(item.block) if item.block else [key[0]]
        for command, done in run_as_printed(lines, folder, replay):
            ran += 1
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
                problems.append(f"{item.where}: `{command}` failed: {' / '.join(tail)}")
    return problems, ran


# The checks ------------------------------------------------------------------------------


CHECKED = ("catan-arena", "make", "manage.py", "python", "celery", "gunicorn", "docker")
CHECKED += ("curl", "pip", "export", "source", "openapi-python-client")


def test_every_command_line_shown_has_a_check() -> None:
    programs = {program(s.command) for s in shown()}
    assert {"catan-arena", "make", "manage.py", "docker", "celery"} <= programs, programs
    assert programs <= set(CHECKED), f"no check for {programs - set(CHECKED)}"
    templates = [s for s in shown() if s.where.startswith("templates/")]
    assert any("upload" in s.command for s in templates), "the upload page's command"


def test_catan_arena_commands_parse_as_printed() -> None:
    commands = of("catan-arena")
    assert len(commands) > 30
    problems = [f"{s}: {p}" for s in commands if (p := cli_usage_problem(s.command))]
    assert not problems, report(problems)


def test_each_subcommand_help_lists_the_flags_shown() -> None:
    flags: dict[tuple[str, ...], set[str]] = {}
    for item in of("catan-arena"):
        argv = expand(shlex.split(item.command)[1:])
        path, _ = cli_path(argv)
        shown_flags = {w.split("=")[0].strip("[]|") for w in argv if w.lstrip("[").startswith("-")}
        flags.setdefault(path, set()).update(shown_flags)
    assert ("replay", "check") in flags and ("upload",) in flags
    problems = []
    for path, wanted in sorted(flags.items()):
        done = run(shlex.join(["catan-arena", *path, "--help"]), ROOT, environment(ROOT / ".data"))
        missing = {f for f in wanted if f not in done.stdout}
        if done.returncode != 0 or missing:
            problems.append(f"catan-arena {' '.join(path)} --help: {done.returncode}, {missing}")
    assert not problems, report(problems)


@pytest.mark.timeout(900)
def test_the_commands_that_need_no_server_run_as_printed(
    tmp_path: Path, a_replay: dict[str, Any]
) -> None:
    problems, ran = failures(of("catan-arena"), tmp_path, a_replay)
    assert ran >= 8, f"only {ran} commands ran: the selection is broken"
    assert not problems, report(problems)


def test_make_commands_dry_run() -> None:
    problems = []
    for item in of("make"):
        done = run("make -n " + item.command.removeprefix("make").strip(), ROOT, dict(os.environ))
        if done.returncode != 0:
            problems.append(f"{item}: {done.stderr.strip()}")
    assert len(of("make")) > 10 and not problems, report(problems)


def test_manage_commands_parse_as_printed() -> None:
    commands = [s for s in shown() if "manage.py" in s.command.split()]
    assert len(commands) > 10
    problems = [f"{s}: {p}" for s in commands if (p := manage_problem(s.command))]
    assert not problems, report(problems)


def test_python_modules_exist_and_the_cheap_ones_run(tmp_path: Path) -> None:
    import importlib.util

    problems, ran = [], set()
    for item in of("python", "docker"):
        words = shlex.split(item.command)
        if "-m" not in words:
            continue
        module = words[words.index("-m") + 1]
        command = item.command.split(" [")[0]  # its optional argument left out
        once = command.split(" -m ", 1)[1]  # python and .venv/bin/python: the same here
        if importlib.util.find_spec(module) is None:
            problems.append(f"{item}: no module {module}")
        elif module in RUN_MODULES and program(command) == "python" and once not in ran:
            ran.add(once)
            done = run(command, ROOT, environment(tmp_path))
            if done.returncode != 0 or "sandbox tier" not in done.stdout + done.stderr:
                problems.append(f"{item}: {done.returncode} {done.stderr[-300:]}")
    for item in [s for s in of("python") if " -c " in s.command]:
        done = run(item.command, ROOT, environment(tmp_path))
        if done.returncode != 0:
            problems.append(f"{item}: {done.stderr[-300:]}")
    assert not problems, report(problems)


def test_celery_and_gunicorn_take_the_options_shown(tmp_path: Path) -> None:
    problems = []
    env = environment(tmp_path)
    for item in of("celery", "gunicorn"):
        extra = " --help" if program(item.command) == "celery" else " --check-config"
        done = run(item.command + extra, ROOT, env)
        if done.returncode != 0:
            problems.append(f"{item}: {done.returncode} {(done.stderr or done.stdout)[-300:]}")
    assert len(of("celery")) >= 3 and not problems, report(problems)


def test_docker_compose_commands_name_its_services() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = set(compose["services"])
    problems = []
    for item in of("docker"):
        words = shlex.split(item.command)
        assert words[:2] == ["docker", "compose"], item
        named = [w.split("=")[0] for w in words if "=" in w and not w.startswith("-")]
        if words[2] == "exec":
            named.append(words[3])
            inner = " ".join(words[4:])
            if "manage.py" in inner and (problem := manage_problem(inner)):
                problems.append(f"{item}: {problem}")
        elif words[2] != "up":
            problems.append(f"{item}: compose {words[2]} is not checked")
        problems += [f"{item}: no service {n!r}" for n in named if n not in services]
    assert len(of("docker")) >= 3 and not problems, report(problems)


def test_the_rest_curl_pip_export_source() -> None:
    from django.urls import Resolver404, resolve

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    problems = []
    for item in of("curl", "pip", "export", "source"):
        words = shlex.split(item.command)
        if words[0] == "curl":
            path = "/" + item.command.split("$SERVER/", 1)[1].split()[0]
            with contextlib.suppress(Resolver404):
                resolve(path)
                continue
            problems.append(f"{item}: no page {path}")
        elif words[0] == "pip" and "==" in words[-1]:  # a pinned tool: the suite's own pin
            if words[-1] not in extras["optional-dependencies"]["dev"]:
                problems.append(f"{item}: not the pin of pyproject.toml's dev extra")
        elif words[0] == "pip":
            extra = re.search(r"\[(\w+)\]", item.command)
            if not extra or extra.group(1) not in extras["optional-dependencies"]:
                problems.append(f"{item}: no such extra")
        elif words[0] == "source":
            if not (ROOT / words[1]).is_file():
                problems.append(f"{item}: no file {words[1]}")
        elif subprocess.run(["bash", "-n", "-c", item.command]).returncode != 0:
            problems.append(f"{item}: not valid shell")
    assert not problems, report(problems)


def test_the_client_generator_takes_the_options_shown() -> None:
    """``openapi-python-client generate ...`` (the bot guide's): its subcommand's
    ``--help`` lists every option shown (tests/platform/test_generated_client.py runs it
    for real against a live server)."""
    shown_here = of("openapi-python-client")
    assert shown_here, "the bot guide's generated client"
    tool = Path(sys.executable).parent / "openapi-python-client"
    for item in shown_here:
        words = shlex.split(item.command)
        usage = subprocess.run(
            [str(tool), words[1], "--help"], capture_output=True, text=True, timeout=120
        )
        assert usage.returncode == 0, usage.stderr
        flags = [w for w in words if w.startswith("--")]
        assert all(f in usage.stdout for f in flags), (item, flags)


# The controls: the examples that were printed wrong ----------------------------------------

OLD_UPLOAD_PAGE = (
    "<p>Or from the command line: <code>catan-arena upload NAME FILE --wait</code>.</p>"
)
OLD_GUIDE_LINE = "catan-arena replay replays/game-0.json"


def test_the_upload_pages_old_command_is_caught() -> None:
    page = ROOT / "templates" / "web" / "upload.html"
    [old] = shown_in_template(page, OLD_UPLOAD_PAGE)
    assert old.command == "catan-arena upload NAME FILE --wait"
    assert "required: --name" in str(cli_usage_problem(old.command))
    [now] = [s for s in shown_in_template(page) if " upload " in s.command]
    assert now.command == "catan-arena upload FILE --name NAME --wait"
    assert cli_usage_problem(now.command) is None


@pytest.mark.timeout(900)
def test_the_guides_old_replay_line_fails_where_the_new_one_runs(
    tmp_path: Path, a_replay: dict[str, Any]
) -> None:
    guide = ROOT / "docs" / "bot-guide.md"
    text = guide.read_text(encoding="utf-8")
    [new] = [
        s for s in shown_in_docs(guide, text) if s.command.startswith("catan-arena replay rep")
    ]
    old_text = text.replace(new.command, OLD_GUIDE_LINE)
    [old] = [s for s in shown_in_docs(guide, old_text) if s.command == OLD_GUIDE_LINE]
    folder = tmp_path / "reader"
    folder.mkdir()
    lines = [line.replace("--games 50", "--games 2") for line in old.block]  # the files' names
    results = dict(run_as_printed(lines, folder, a_replay))
    assert results[OLD_GUIDE_LINE].returncode != 0, "the old line ran"
    assert "cannot read replays/game-0.json" in results[OLD_GUIDE_LINE].stderr
    played = sorted(p.name for p in (folder / "replays").iterdir())
    assert played and all(re.fullmatch(r"game-[0-9a-f]{32}\.json", n) for n in played), played
    again = run(new.command, folder, environment(folder / ".data"))
    assert again.returncode == 0 and again.stdout.count(": reproduces") == len(played)
    shutil.rmtree(folder)
