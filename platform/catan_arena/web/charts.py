"""Small server-drawn SVG charts (no JavaScript needed)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 600, 160, 8


@dataclass(frozen=True)
class Line:
    points: str
    """SVG polyline points."""
    low: float
    high: float
    width: int = WIDTH
    height: int = HEIGHT


def rating_line(values: Sequence[float]) -> Line | None:
    """A polyline of ``values`` scaled into the chart (None for fewer than 2)."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    points = " ".join(
        f"{PAD + i * step:.1f},{HEIGHT - PAD - (v - low) / span * (HEIGHT - 2 * PAD):.1f}"
        for i, v in enumerate(values)
    )
    return Line(points, low, high)
