"""The page's charts, drawn here as inline SVG: no script library to ship, pin and keep safe,
and a chart that shows even with scripts off. Each is a small bar chart, one bar per run, oldest
first; a run without a figure (a pair not declared yet, a column not compared) leaves its slot
empty. A page of 200 pairs holds thousands of them: each is one path per colour and one tooltip
listing its figures, not an element per bar."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

# A run with nothing wrong still gets a visible mark, so that a flat chart reads as "zero",
# not as "missing".
ZERO = 1.5


@dataclass(frozen=True)
class Size:
    """Pixels per bar, between bars, and the chart's height."""

    bar: int
    gap: int
    height: int


SPARK = Size(6, 2, 22)  # in a table cell: 20 runs in 160 px
RUNS = Size(14, 4, 48)
# Room for this many runs at least, the last at the right edge: a project's first runs do not
# make a chart a few pixels wide, and the charts of a page line up.
SLOTS = 10


def bars(values: Sequence[float | None], title: str, size: Size = SPARK) -> Markup:
    """A bar per run, scaled to the largest value; ``title`` is the chart's tooltip."""
    largest = max((value for value in values if value), default=0)
    drawn: dict[str, list[str]] = {"bar": [], "zero": []}
    for slot, value in enumerate(values, start=_first_slot(len(values))):
        if value is not None:
            height = max(ZERO + 1, size.height * value / largest) if value else ZERO
            drawn["bar" if value else "zero"].append(_bar(slot, height, 0, size))
    return _svg(len(values), title, drawn, size)


def stacked(passed: Sequence[int], failed: Sequence[int], title: str, size: Size = RUNS) -> Markup:
    """A bar per run: its pairs that passed below, those that did not on top."""
    largest = max((good + bad for good, bad in zip(passed, failed, strict=True)), default=0) or 1
    drawn: dict[str, list[str]] = {"bar pass": [], "bar fail": []}
    for slot, (good, bad) in enumerate(zip(passed, failed, strict=True), _first_slot(len(passed))):
        below = size.height * good / largest
        drawn["bar pass"].append(_bar(slot, below, 0, size))
        if bad:
            drawn["bar fail"].append(_bar(slot, size.height * bad / largest, below, size))
    return _svg(len(passed), title, drawn, size)


def _first_slot(runs: int) -> int:
    return max(SLOTS - runs, 0)


def _bar(slot: int, height: float, above: float, size: Size) -> str:
    """One bar as a closed subpath: from its top left corner, across, down to its base, back."""
    top = _number(size.height - above - height)
    return f"M{slot * (size.bar + size.gap)} {top}h{size.bar}v{_number(height)}h-{size.bar}z"


def _number(pixels: float) -> str:
    """A coordinate to a tenth of a pixel, without a trailing zero: thousands of them a page."""
    return f"{pixels:.1f}".rstrip("0").rstrip(".")


def _svg(slots: int, title: str, drawn: dict[str, list[str]], size: Size) -> Markup:
    width = max(slots, SLOTS) * (size.bar + size.gap)
    paths = "".join(
        f'<path class="{style}" d="{"".join(bars)}"></path>'
        for style, bars in drawn.items()
        if bars
    )
    return Markup(
        f'<svg class="chart" width="{width}" height="{size.height}"'
        f' viewBox="0 0 {width} {size.height}" role="img"><title>{escape(title)}</title>'
        f'<line class="axis" x1="0" y1="{size.height}" x2="{width}" y2="{size.height}"></line>'
        f"{paths}</svg>"
    )
