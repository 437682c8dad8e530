"""Integer key space and the segment grid that divides it, with no database in sight.

Positions ``low .. low + span - 1`` are scaled to ``width`` units, then cut into
``factor ** depth`` cells at each depth: the cell of unit ``u`` is ``u * factor**depth // width``.
Because ``floor(floor(x * f) / f) == floor(x)``, a cell at depth ``d + k`` always lies inside the
cell ``index // factor**k`` at depth ``d``: the grid nests by construction, so every engine can
compute cell numbers independently with integer arithmetic and still agree on the drill-down.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt

# Every intermediate product (unit * factor**depth) stays below this bound, so engines can compute
# cells exactly in a decimal(38, 0); key ranges wider than the bound are scaled down first.
EXACT_PRODUCT_LIMIT = 10**37
# Every cell number, down to cells of one unit, fits a bigint: Spark's `div` returns one, and past
# it wraps silently, with ANSI on or off.
LARGEST_CELL_NUMBER = 2**63 - 1


@dataclass(frozen=True)
class KeySpace:
    low: int
    scale: int
    width: int
    factor: int

    @classmethod
    def spanning(cls, minimum: int, maximum: int, factor: int, align: int = 1) -> KeySpace:
        """The space covering every position from ``minimum`` to ``maximum`` inclusive. With
        ``align``, its low end and its unit are multiples of ``align``, so each block of
        ``align`` positions starting at a multiple of it lies whole inside one cell at every
        depth (a side that summarized such blocks answers checksums from them)."""
        low = minimum - minimum % align
        span = maximum - low + 1
        # The deepest useful depth has factor**depth < factor * width, so products stay below
        # factor * width**2 and cell numbers below factor * width: cap width accordingly.
        widest = min(isqrt(EXACT_PRODUCT_LIMIT // factor), LARGEST_CELL_NUMBER // factor)
        smallest = -(-span // widest)
        scale = -(-smallest // align) * align
        return cls(low=low, scale=scale, width=-(-span // scale), factor=factor)

    def aligned(self, align: int) -> bool:
        """Whether every block of ``align`` positions starting at a multiple of it lies inside
        one cell at every depth."""
        return self.low % align == 0 and self.scale % align == 0

    def cells(self, depth: int) -> int:
        return self.factor**depth

    def unit_depth(self) -> int:
        """The shallowest depth whose cells hold at most one unit (so cannot be split further)."""
        depth = 0
        while self.cells(depth) < self.width:
            depth += 1
        return depth

    def is_unit(self, depth: int) -> bool:
        return self.cells(depth) >= self.width

    def cell_of(self, position: int, depth: int) -> int:
        return ((position - self.low) // self.scale) * self.cells(depth) // self.width

    def bounds(self, depth: int, index: int) -> tuple[int, int]:
        """Half-open position range ``[start, end)`` of a cell."""
        cells = self.cells(depth)
        first_unit = -(-index * self.width // cells)
        end_unit = -(-(index + 1) * self.width // cells)
        return self.low + first_unit * self.scale, self.low + end_unit * self.scale
