"""One strict reader of environment variables (``arena_runner.env``), in the README's
own words: its boolean spellings are exactly the reader's, every default it prints
reads as it means (``CATAN_SANDBOX_REQUIRE_CGROUPS=off`` is off), anything else stops
with the variable's name, and numbers are held to their bounds."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from arena_runner.env import BOOLEAN_WORDS, EnvError, env_bool, env_choice, env_float, env_int
from arena_runner.policy import check_environment
from arena_runner.sandbox.tiers import SandboxUnavailable, Tier, cgroups_required
from arena_runner.sandbox.tiers import configured_minimum as minimum_tier

README = Path(__file__).resolve().parents[2] / "README.md"
VAR = "CATAN_TEST_ENV_READER"


def _configuration() -> str:
    text = README.read_text()
    return text[text.index("## Configuration reference") :].split("\n## ", 1)[0]


def _table() -> list[tuple[list[str], str]]:
    """(variables, default) of each row of the README's configuration table."""
    rows = []
    for line in _configuration().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            rows.append((re.findall(r"`([A-Z][A-Z0-9_]+)`", cells[0]), cells[1]))
    return rows


def test_the_readme_names_exactly_the_readers_boolean_words() -> None:
    found = re.search(r"booleans are exactly (.+?);", _configuration(), re.S)
    assert found, "the README no longer says which words a boolean takes"
    assert set(re.findall(r"`([^`]+)`", found.group(1))) == set(BOOLEAN_WORDS)


def test_every_boolean_default_the_readme_prints_reads_as_it_means(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each single-word default of the table that is a boolean word (``false``, ``true``,
    ``off``), given back to the reader, means that word: ``off`` is off."""
    seen = set()
    for names, default in _table():
        words = re.findall(r"`([^`]+)`", default.split("(")[0])
        if len(words) != 1 or words[0] not in BOOLEAN_WORDS:
            continue
        seen.add(words[0])
        for name in names:
            monkeypatch.setenv(name, words[0])
            assert env_bool(name, not BOOLEAN_WORDS[words[0]]) is BOOLEAN_WORDS[words[0]]
    assert {"false", "true", "off"} <= seen


@pytest.mark.parametrize("word", [*BOOLEAN_WORDS, "OFF", " On ", "True"])
def test_require_cgroups_reads_every_word(monkeypatch: pytest.MonkeyPatch, word: str) -> None:
    monkeypatch.setenv("CATAN_SANDBOX_REQUIRE_CGROUPS", word)
    assert cgroups_required() is BOOLEAN_WORDS[word.strip().lower()]


def test_require_cgroups_unset_or_empty_is_its_default_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CATAN_SANDBOX_REQUIRE_CGROUPS", raising=False)
    assert cgroups_required() is False
    monkeypatch.setenv("CATAN_SANDBOX_REQUIRE_CGROUPS", "")
    assert cgroups_required() is False


@pytest.mark.parametrize("word", ["of", "maybe", "2", "enabled", "y", "-1"])
def test_any_other_word_stops_with_the_variables_name(
    monkeypatch: pytest.MonkeyPatch, word: str
) -> None:
    monkeypatch.setenv("CATAN_SANDBOX_REQUIRE_CGROUPS", word)
    with pytest.raises(SandboxUnavailable, match=f"CATAN_SANDBOX_REQUIRE_CGROUPS='{word}'"):
        cgroups_required()
    with pytest.raises(EnvError, match="is not a boolean"):
        check_environment()


def test_tier_names_and_the_uid_pool_are_checked_at_start_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CATAN_SANDBOX_MIN_TIER", "full")
    assert minimum_tier() is Tier.FULL
    check_environment()
    for name, value in [
        ("CATAN_SANDBOX_MIN_TIER", "STRONG"),
        ("CATAN_SANDBOX_TIER", "FUL"),
        ("CATAN_SANDBOX_UIDS", "64000"),
    ]:
        with monkeypatch.context() as env:
            env.setenv(name, value)
            with pytest.raises(EnvError, match=name):
                check_environment()


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("-5", f"{VAR}=-5 must be at least 0"),
        ("ten", f"{VAR}='ten' is not a number"),
        ("nan", "is not a finite number"),
        ("inf", "is not a finite number"),
        ("1e9", f"{VAR}=1e+09 must be at most 3600"),
    ],
)
def test_a_number_out_of_its_bounds_stops_with_the_variables_name(
    monkeypatch: pytest.MonkeyPatch, value: str, words: str
) -> None:
    monkeypatch.setenv(VAR, value)
    with pytest.raises(EnvError, match=re.escape(words)):
        env_float(VAR, 10.0, at_least=0, at_most=3600)


def test_numbers_within_bounds_and_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(VAR, raising=False)
    assert env_float(VAR, 10.0, at_least=0) == 10.0
    assert env_int(VAR, 3, at_least=1) == 3
    monkeypatch.setenv(VAR, "0")
    assert env_float(VAR, 10.0, at_least=0) == 0.0
    with pytest.raises(EnvError, match=f"{VAR}=0 must be positive"):
        env_float(VAR, 1.0, above=0)
    with pytest.raises(EnvError, match=f"{VAR}=0 must be at least 1"):
        env_int(VAR, 3, at_least=1)
    monkeypatch.setenv(VAR, "2.5")
    with pytest.raises(EnvError, match=f"{VAR}='2.5' is not a whole number"):
        env_int(VAR, 3)


def test_a_choice_is_one_of_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VAR, "info")
    assert env_choice(VAR, "WARNING", ("INFO", "WARNING")) == "INFO"
    monkeypatch.setenv(VAR, "loud")
    with pytest.raises(EnvError, match=f"{VAR}='loud' is not one of: INFO, WARNING"):
        env_choice(VAR, "WARNING", ("INFO", "WARNING"))


ROOT = README.parent
PRODUCT = ("engine", "bots", "arena_runner", "arena_cli", "platform/catan_arena")
OUTSIDE_THE_READER = {
    "arena_runner/env.py": "the reader itself",
    "bots/jail.py": "a bot's own process, which has no arena_runner: CATAN_JAIL",
}


def test_the_code_reads_the_environment_through_the_reader_only() -> None:
    """No ``os.environ.get``/``os.getenv``/``os.environ[...]`` of its own anywhere in the
    product (``setdefault`` of ``DJANGO_SETTINGS_MODULE`` aside): a variable read around
    the reader would follow rules of its own again."""
    found = []
    for root in PRODUCT:
        for path in sorted((ROOT / root).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if name in OUTSIDE_THE_READER:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call | ast.Subscript):
                    continue
                text = ast.unparse(node)
                own = re.match(r"os\.(environ\.get|getenv)\(|os\.environ\[", text)
                if own and isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
                    found.append(f"{name}:{node.lineno}: {text}")
    assert not found, found
