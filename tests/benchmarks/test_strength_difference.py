"""``benchmarks/strength_difference.py``: the difference of two win rates with Newcombe's
hybrid score interval, checked against the worked example of Newcombe (1998), and the
verdict ``make bench-strength`` prints for issue 22's "clearly above"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.strength import main as strength_main
from benchmarks.strength_difference import describe, difference_interval
from benchmarks.strength_difference import main as difference_main


def run(wins: int, games: int, decision_ms: float) -> dict[str, object]:
    return {"candidate": "search", "wins": wins, "games": games, "decision_ms": decision_ms}


def test_newcombes_worked_example() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, table II, example (a): 56/70 against
    # 48/80, method 10: difference 0.2000, 95% interval 0.0524 to 0.3339
    delta, low, high = difference_interval(48, 80, 56, 70)
    assert delta == pytest.approx(0.2)
    assert low == pytest.approx(0.0524, abs=5e-5)
    assert high == pytest.approx(0.3339, abs=5e-5)


def test_the_interval_is_antisymmetric_in_the_runs() -> None:
    delta, low, high = difference_interval(126, 200, 136, 200)
    back = difference_interval(136, 200, 126, 200)
    assert back == pytest.approx((-delta, -high, -low))


@pytest.mark.parametrize(
    ("base", "other", "verdict"),
    [
        ((122, 200), (150, 200), "clearly above"),
        ((136, 200), (126, 200), "not clearly above"),
        ((130, 200), (144, 200), "not clearly above"),  # +7 points on 200 games each
        ((150, 200), (110, 200), "clearly below"),
    ],
)
def test_the_verdict_follows_the_interval(
    base: tuple[int, int], other: tuple[int, int], verdict: str
) -> None:
    line = describe(run(*base, 100), run(*other, 1000))
    assert line.endswith(f": {verdict}"), line
    assert f"({other[0]}/{other[1]})" in line and f"({base[0]}/{base[1]})" in line


def test_saved_runs_are_compared_from_their_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two real (tiny) strength runs saved with ``--save`` and read back."""
    files = []
    for ms in (20, 40):
        path = tmp_path / f"run-{ms}.json"
        strength_main(["random", "random", "--games", "2", "--decision-ms", str(ms),
                       "--jobs", "1", "--seed", "5", "--save", str(path)])  # fmt: skip
        saved = json.loads(path.read_text())
        assert saved["games"] == 2 and saved["decision_ms"] == ms and saved["seed"] == 5
        files.append(str(path))
    capsys.readouterr()
    assert difference_main(files) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("random at 40 ms") and "minus at 20 ms" in line, line


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        difference_main([str(tmp_path / "absent.json"), str(tmp_path / "absent.json")])
    assert exit_info.value.code == 2
