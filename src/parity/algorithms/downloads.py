"""A download: the rows of some cells from both sides, compared in Spark. What it moves out of
each side's engine and the row differences it finds are observed by the job that reads those
differences, then counted into the search's stats and logged, once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

from pyspark.sql import Column, DataFrame, Observation
from pyspark.sql import functions as F

from parity.algorithms.search_stats import SearchStats
from parity.log import logger


@dataclass(frozen=True)
class Download:
    pair_name: str
    depth: int
    cells: int
    moved: tuple[Observation, Observation]
    found: Observation

    @classmethod
    def named(cls, pair_name: str, depth: int, cells: int, number: int) -> Download:
        """The download of ``cells`` cells at ``depth``, its observations named apart by
        ``number``: a pair's downloads are observed in one plan."""
        moved = tuple(Observation(f"parity_moved_{side}_{number}") for side in ("source", "target"))
        return cls(pair_name, depth, cells, moved, Observation(f"parity_found_{number}"))

    def rows(self, pieces: list[tuple[DataFrame, DataFrame]]) -> tuple[DataFrame, DataFrame]:
        """Each side's rows of these cells, from one or more ``pieces`` (each both sides' rows
        of the same cells), observed as they leave the engines."""
        source_rows, target_rows = (
            reduce(DataFrame.unionByName, frames).observe(observed, _rows())
            for frames, observed in zip(zip(*pieces, strict=True), self.moved, strict=True)
        )
        return source_rows, target_rows

    def differences(self, joined: DataFrame) -> DataFrame:
        """The row differences joined from those rows, observed as they are read."""
        return joined.observe(self.found, _rows())

    def count(self, stats: SearchStats) -> None:
        from_source, from_target = (int(observed.get["rows"]) for observed in self.moved)
        stats.source_rows_moved += from_source
        stats.target_rows_moved += from_target
        logger.info(
            "parity pair '%s': %d segments downloaded at depth %d, %d rows moved (%d from "
            "source, %d from target), %d row differences",
            self.pair_name,
            self.cells,
            self.depth,
            from_source + from_target,
            from_source,
            from_target,
            self.found.get["rows"],
        )


def _rows() -> Column:
    return F.count(F.lit(1)).alias("rows")
