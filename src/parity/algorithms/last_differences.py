"""What a pair's last result leaves hashdiff to reuse: the run that computed it, the differing
cells of its first segment pass with their checksums (segment_state.py), and its row differences
in any of those cells, read back from the history (pipelines/reused_differences.py). A cell found
differing again with both checksums unchanged holds the same rows on both sides as then, so it
holds the same differences: they are reused, and the cell is not drilled into again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pyspark.sql import DataFrame

from parity.algorithms.segment_state import SegmentState
from parity.values.profile import Checksum


@dataclass(frozen=True)
class LastDifferences:
    run_id: str
    segments: SegmentState
    # The row differences in some of those cells, as canonical_join gives them.
    rows: Callable[[frozenset[int]], DataFrame]

    def unchanged(self, cells: dict[int, tuple[Checksum, Checksum]]) -> set[int]:
        """Of these differing cells (each with its source and target checksums, in the
        segments' space and depth), those the last result found with the same checksums."""
        last = self.segments.cells
        return {cell for cell, both in cells.items() if last.get(cell) == both}
