"""Integer key space and the segment grid that divides it, with no database in sight.

Positions ``low .. low + span - 1`` are scaled to ``width`` units, then cut into
``factor ** depth`` cells at each depth: the cell of unit ``u`` is ``u * factor**depth // width``.
Because ``floor(floor(x * f) / f) == floor(x)``, a cell at depth ``d + k`` always lies inside the
cell ``index // factor**k`` at depth ``d``: the grid nests by construction, so every engine can
compute cell numbers independently with integer arithmetic and still agree on the drill-down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import isqrt

# Every intermediate product (unit * factor**depth) stays below this bound, so engines can compute
# cells exactly in a decimal(38, 0); key ranges wider than the bound are scaled down first.
EXACT_PRODUCT_LIMIT = 10**37
# Every cell number, down to cells of one unit, fits a bigint: Spark's `div` returns one, and past
# it wraps silently, with ANSI on or off.
LARGEST_CELL_NUMBER = 2**63 - 1
# A key that is not its own position is positioned by its row hash (macros/canonical/row_hash.sql):
# the lower 60 bits of an MD5, uniform over [0, 2**60).
HASHED_POSITION_BITS = 60
# A side held by another engine profiles a hashed key in blocks of the top HASHED_BLOCK_BITS bits
# of its position (macros/canonical/cell_number.sql: hashed_block). 2^15 blocks: as many cells
# as a first segment pass asks for at most within its budget (hashdiff's CELL_BUDGET_PER_PASS;
# 32,768 at the default factor of 32, depth 3), so that pass is answered from them, while what
# the driver keeps stays a few megabytes whatever the table's size.
HASHED_BLOCK_BITS = 15


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
        depth (a side that summarized such blocks answers checksums from them). Its width is a
        power of two: keys appended into that headroom leave every cell where it was, so a
        pair's next run finds its last result's segments again (algorithms/segment_state.py)."""
        low = minimum - minimum % align
        span = maximum - low + 1
        widest = 1 << (_widest(factor).bit_length() - 1)
        smallest = -(-span // widest)
        scale = -(-smallest // align) * align
        units = -(-span // scale)
        return cls(low=low, scale=scale, width=1 << (units - 1).bit_length(), factor=factor)

    def still_spans(self, minimum: int, maximum: int, factor: int, align: int = 1) -> bool:
        """Whether this space, a last run's, may serve again for positions from ``minimum`` to
        ``maximum``: it covers them, aligned as asked, in the unit ``spanning`` would choose and
        at most twice as wide, so its cells are no sparser than a fresh space's by more than
        that. Oldest keys deleted and new ones appended then keep the cells in place."""
        fresh = KeySpace.spanning(minimum, maximum, factor, align)
        return (
            self.factor == factor
            and self.aligned(align)
            and self.low <= minimum
            and maximum < self.low + self.scale * self.width
            and self.scale == fresh.scale
            and self.width <= 2 * fresh.width
        )

    @classmethod
    def hashed(cls, factor: int) -> KeySpace:
        """The space of every hashed position, [0, 2**60): its unit and width are powers of
        two, so where the factor is one too, a cell is a shift of the position (an engine
        computes it in a bigint, with no wider arithmetic)."""
        width = 1 << (_widest(factor).bit_length() - 1)
        return cls(low=0, scale=(1 << HASHED_POSITION_BITS) // width, width=width, factor=factor)

    def aligned(self, align: int) -> bool:
        """Whether every block of ``align`` positions starting at a multiple of it lies inside
        one cell at every depth."""
        return self.low % align == 0 and self.scale % align == 0

    def holds_blocks(self, align: int, depth: int) -> bool:
        """Whether every block of ``align`` positions starting at a multiple of it lies inside
        one cell at ``depth``: at every depth where the space is aligned to it, else where each
        cell spans the same whole number of units, a multiple of ``align`` positions (a hashed
        space's cells at depths that divide its blocks evenly)."""
        if self.aligned(align):
            return True
        cells = self.cells(depth)
        return (
            self.low % align == 0
            and self.width % cells == 0
            and self.width // cells * self.scale % align == 0
        )

    def shift(self, depth: int) -> int | None:
        """Where unit, width and cells at ``depth`` are powers of two, cells no more than units:
        the shift that takes a position, less ``low``, to its cell
        (floor(floor(x / 2^s) * 2^c / 2^w) = floor(x / 2^(s + w - c))); else None."""
        cells = self.cells(depth)
        if not all(n & (n - 1) == 0 for n in (self.scale, self.width, cells)) or cells > self.width:
            return None
        return (self.scale * self.width // cells).bit_length() - 1

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
        return self.cell_at(depth)(position)

    def cell_at(self, depth: int) -> Callable[[int], int]:
        """cell_of at one depth, its constants computed once: for many positions."""
        low, scale, width, cells = self.low, self.scale, self.width, self.cells(depth)
        return lambda position: ((position - low) // scale) * cells // width

    def bounds(self, depth: int, index: int) -> tuple[int, int]:
        """Half-open position range ``[start, end)`` of a cell."""
        cells = self.cells(depth)
        first_unit = -(-index * self.width // cells)
        end_unit = -(-(index + 1) * self.width // cells)
        return self.low + first_unit * self.scale, self.low + end_unit * self.scale


def _widest(factor: int) -> int:
    """The widest a space may be, in units: the deepest useful depth has factor**depth < factor *
    width, so products stay below factor * width**2 and cell numbers below factor * width."""
    return min(isqrt(EXACT_PRODUCT_LIMIT // factor), LARGEST_CELL_NUMBER // factor)
