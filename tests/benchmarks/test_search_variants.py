"""The search bot's tuning variants (``benchmarks/search_variants``) still load and play
a whole game in-process, each in a fresh worker (a variant patches the search module)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from benchmarks import paired_inprocess as harness

VARIANTS = sorted((Path(__file__).parents[2] / "benchmarks" / "search_variants").glob("*.py"))


def _play(spec: str) -> tuple[int, int, int]:
    harness._load(spec, 2)
    return harness.play(500_003)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda p: p.stem)
def test_a_variant_plays_a_game(variant: Path) -> None:
    with multiprocessing.get_context("fork").Pool(1) as pool:
        seed, won, points = pool.apply(_play, (str(variant),))
    assert seed == 500_003 and won in (0, 1) and 2 <= points <= 12


def test_there_are_variants() -> None:
    assert {p.stem for p in VARIANTS} >= {"horizon4", "unlike", "goals"}
