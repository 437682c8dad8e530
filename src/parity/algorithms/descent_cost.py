"""Whether splitting differing cells can still narrow what is downloaded, and whether one more
checksum pass pays for itself: the cost model that lets a drill-down refine thin drift below the
bisection threshold and stop early on thick drift, so the threshold is an upper bound a user
rarely sets. Every quantity it reads is the pass's own counts (cells, rows, factor) and what a
side answers a pass from, never a clock: where the drill-down stops decides which rows are
downloaded, and with them what a tolerant pair publishes within tolerance, so identical inputs
must drill alike whatever the machine's load.

Narrowing. A row of a checked cell is taken to differ with some probability ``p``, each
independently: a cell of ``m`` rows (the checked cells' mean) differs with probability
``1 - (1 - p)^m``, which the share ``f`` of checked cells differing gives, so
``p = 1 - (1 - f)^(1/m)``. Rows are discrete, so one level down a row lies in a child of
``c = max(m / factor, 1)`` rows, which still differs with probability ``1 - (1 - p)^c``: that
share of a differing cell's rows would still be downloaded. A cell of one row has ``c = m``: a
split cannot narrow it. Where every cell checked differs, ``f`` says only that ``p`` is large:
the model takes the least ``p`` at which all of them differ with even odds, so a few cells all
differing are refined once more (thin drift spread over few cells looks so), while thousands of
small ones are not. Where the share still differing a level down is SATURATED_SHARE or more
(nearly every cell differs, and its cells hold few rows), a pass saves less than a tenth of the
download at best: the drill-down stops and downloads what differs, however large its cells.
With thin drift over cells of many rows the share is near ``1 / factor`` and it goes on.

Price. A pass costs a job or a round trip however few cells it asks about, and a side that
cannot answer it from the profile it kept (blocks or keys, summed in Spark or in Python) reads
its whole table again. Priced in rows moved (a row downloaded, canonicalized and joined in
Spark): PASS_ROWS for the pass, plus each row a side reads again at one row moved (the first
pass reads each row once, and moving a row costs at least reading it again, as the model priced
by timings assumed). One more pass is run where the rows it is expected to save cost more.
Measured on this 2-core machine under a concurrent benchmark: downloading and judging the rows of
10 cells (1,151 rows) from PostgreSQL or DuckDB took 2.5 s and one whole cell (6,001 rows) 3.5 s,
so a row moved costs about 0.2 ms beyond the download's fixed cost (which refining does not
change: there is one download either way); a pass took 0.15 s and 0.5 s (a PostgreSQL or DuckDB
side against a Spark one, 48 cells) and about 1 s (two Spark sides of 20,000 rows, 3,107 to
14,939 cells, from the kept profiles), that is 750 to 5,000 rows moved. PASS_ROWS takes the
upper end: where the saving is marginal, fewer passes.
"""

from __future__ import annotations

# A pass saving less than a tenth of the differing cells' rows cannot narrow the download.
SATURATED_SHARE = 0.9
# The cost of one pass answered from kept profiles, in rows moved.
PASS_ROWS = 4096


def child_share(rows_per_cell: float, differing: int, checked: int, factor: int) -> float:
    """The expected share of a differing cell's rows still in differing cells one level down,
    where ``differing`` of ``checked`` cells of ``rows_per_cell`` rows (a side's mean) differ."""
    rows = max(rows_per_cell, 1.0)
    child = max(rows / factor, 1.0)
    if child >= rows:
        return 1.0
    # The share of cells alike, (1 - p)^m; where every cell differs, the largest at which all of
    # them differ with even odds: (1 - (1 - p)^m)^checked = 1/2.
    alike = 1 - differing / checked if differing < checked else 1 - 2 ** (-1 / max(checked, 1))
    # A child alike: (1 - p)^c = ((1 - p)^m)^(c / m).
    return (1 - alike ** (child / rows)) / (1 - alike)


def narrows(share: float) -> bool:
    """Whether splitting can still narrow cells of which ``share`` of the rows would still
    differ one level down."""
    return share < SATURATED_SHARE


def pass_rows(reread_rows: int) -> int:
    """What one more pass costs, in rows moved, where the sides read ``reread_rows`` rows of
    their tables again to answer it (0 where both answer from the profiles they kept)."""
    return PASS_ROWS + reread_rows


def refining_pays(rows: int, share: float, cost_rows: int) -> bool:
    """Whether one more pass over differing cells of ``rows`` rows in all (``share`` of which
    would still differ one level down) saves more rows moved than it costs (``pass_rows``)."""
    return rows * (1 - share) > cost_rows
