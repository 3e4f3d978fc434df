"""``benchmarks/strength_difference.py``: the difference of two win rates with Newcombe's
intervals (independent runs, and runs paired on the same seeds), checked against worked
examples, and the verdict ``make bench-strength`` prints for issue 22's "clearly
above"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.strength import main as strength_main
from benchmarks.strength_difference import (
    describe,
    difference_interval,
    paired_difference_interval,
    paired_table,
)
from benchmarks.strength_difference import main as difference_main


def run(wins: int, games: int, decision_ms: float) -> dict[str, object]:
    return {"candidate": "search", "wins": wins, "games": games, "decision_ms": decision_ms}


def seeded(won: list[int], decision_ms: float, first_seed: int = 100) -> dict[str, object]:
    """A run's summary with its games: ``won[i]`` for seed ``first_seed + i``."""
    by_seed = [[first_seed + i, w] for i, w in enumerate(won)]
    return run(sum(won), len(won), decision_ms) | {"won_by_seed": by_seed}


def test_newcombes_worked_example() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, table II, example (a): 56/70 against
    # 48/80, method 10: difference 0.2000, 95% interval 0.0524 to 0.3339
    delta, low, high = difference_interval(48, 80, 56, 70)
    assert delta == pytest.approx(0.2)
    assert low == pytest.approx(0.0524, abs=5e-5)
    assert high == pytest.approx(0.3339, abs=5e-5)


def test_the_paired_worked_example() -> None:
    # Fagerland, Lydersen and Laake, Statistical Analysis of Contingency Tables (2017),
    # chapter 8, complete response before and after consolidation therapy (Cavo et al.
    # 2012), table [[59, 6], [16, 80]], Newcombe's square-and-add interval for paired
    # data: estimate -0.0621, 95% interval -0.1186 to -0.0046
    delta, low, high = paired_difference_interval(59, 6, 16, 80)
    assert delta == pytest.approx(-0.0621, abs=5e-5)
    assert low == pytest.approx(-0.1186, abs=5e-5)
    assert high == pytest.approx(-0.0046, abs=5e-5)


def test_pairing_narrows_the_interval_when_the_runs_agree_on_most_games() -> None:
    # 140/200 against 126/200, independent: not clearly above; the same counts where the
    # two runs agree on all but the 14 games only the other won: clearly above
    independent = difference_interval(126, 200, 140, 200)
    paired = paired_difference_interval(126, 14, 0, 60)
    assert paired[0] == pytest.approx(independent[0])
    assert independent[1] < 0 < paired[1]
    # runs that share nothing but the count (uncorrelated) get about the independent width
    loose = paired_difference_interval(88, 52, 38, 22)
    assert loose[2] - loose[1] == pytest.approx(independent[2] - independent[1], rel=0.05)


def test_runs_on_the_same_seeds_are_paired_and_others_not() -> None:
    base = seeded([1, 1, 0, 0, 1, 0], 100)
    other = seeded([1, 0, 1, 1, 1, 0], 1000)
    assert paired_table(base, other) == (2, 2, 1, 1)
    assert "paired on the same 6 seeds: both won 2, only 1000 ms 2, only 100 ms 1" in describe(
        base, other
    )
    elsewhere = seeded([1, 0, 1, 1, 1, 0], 1000, first_seed=900)
    assert paired_table(base, elsewhere) is None
    assert "(independent samples)" in describe(base, elsewhere)
    assert "(independent samples)" in describe(run(3, 6, 100), other)  # an older save


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
    assert "paired on the same 2 seeds" in line, line


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        difference_main([str(tmp_path / "absent.json"), str(tmp_path / "absent.json")])
    assert exit_info.value.code == 2
