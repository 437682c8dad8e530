"""Whether one more checksum pass pays for itself, or the differing cells should be downloaded
as they are: the cost model that lets a drill-down refine thin drift below the bisection
threshold and stop early on thick drift, so the threshold is an upper bound a user rarely sets.

Differences are taken as spread at random over the cells (a Poisson process): if a share ``f``
of the cells checked differ, each holds ``λ = -ln(1 - f)`` differences on average, and a child
of a differing cell (one of ``factor``) differs with probability
``(1 - e^(-λ / factor)) / (1 - e^(-λ))``. That share of the differing cells' rows would still be
downloaded after one more level; the rest is what the pass saves. It pays when the rows it
saves cost more to move than the pass costs to run, each priced by what this run measured.
Where every cell checked differs, ``f`` says only that λ is large: the model takes the least λ
at which all of them differ with even odds, so a few cells all differing are refined once more
(thin drift spread over few cells looks so), while thousands are less likely to be.
"""

from __future__ import annotations

from math import exp, log


def child_share(differing: int, checked: int, factor: int) -> float:
    """The expected share of a differing cell's rows still in differing cells one level down."""
    if differing >= checked:
        # (1 - e^-λ)^checked = 1/2, for e^-λ small: λ = ln(checked / ln 2).
        per_cell = log(max(checked, 1) / log(2))
    else:
        per_cell = -log(1 - differing / checked)
    return (1 - exp(-per_cell / factor)) / (1 - exp(-per_cell))


def refining_pays(
    rows: int,
    differing: int,
    checked: int,
    factor: int,
    pass_seconds: float,
    row_seconds: float,
) -> bool:
    """Whether one more pass over ``differing`` cells of ``rows`` rows in all (of ``checked``
    cells, in the parents that pass looked into) saves more download time than it costs."""
    saved_rows = rows * (1 - child_share(differing, checked, factor))
    return saved_rows * row_seconds > pass_seconds
