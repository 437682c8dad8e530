"""The row differences a drill-down gathers, kept in Spark: those of the cells it downloads,
joined there (canonical_join.py), and those of the cells found unchanged since the last result,
read back from it (last_differences.py). A pair with a circuit breaker asks it after each, so
the drill-down can stop between passes; without one, the downloads are joined and counted by the
job that judges the differences (results/summary.py), one job fewer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import reduce

from pyspark.sql import DataFrame

from parity.algorithms.canonical_join import canonical_join
from parity.algorithms.downloads import Download
from parity.algorithms.fallback import Fallback, Unanswered
from parity.algorithms.last_differences import LastDifferences
from parity.algorithms.search_stats import SearchStats
from parity.log import logger
from parity.plan import SidePlan


@dataclass
class RowDifferences:
    pair_name: str
    # Where the rows come from: smaller downloads where a side cannot answer one.
    fallback: Fallback
    # The source's plan: the key and value columns joined.
    plan: SidePlan
    unique_keys: bool
    stats: SearchStats
    # Given the differences found (and the rows compared, ``compared``), the limit they reach.
    breaker: Callable[[DataFrame, int], str | None] | None
    compared: int
    frames: list[DataFrame] = field(default_factory=list)
    # The downloads whose rows are counted by the job that first reads the differences.
    uncounted: list[Download] = field(default_factory=list)

    def download(self, depth: int, cells: set[int], each: int) -> bool:
        """Downloads these cells (expected to hold ``each`` rows at most) and joins their rows in
        Spark; True when the breaker says to stop."""
        pieces = self.fallback.rows(depth, cells, each)
        if not pieces:  # every cell of them is a dead letter
            return False
        download = Download.named(self.pair_name, depth, len(cells), len(self.frames))
        keys, values = list(self.plan.key_columns), list(self.plan.value_columns)
        joined = canonical_join(*download.rows(pieces), keys, values, self.unique_keys)
        found = download.differences(joined)
        if self.breaker is None:
            self.frames.append(found)
            self.uncounted.append(download)
            return False
        # Kept in the executors: the downloads they come from are gone when they are published.
        self.frames.append(found.localCheckpoint())
        download.count(self.stats)
        self.stats.halted_by = self.breaker(self.frames[-1], self.compared)
        if self.stats.halted:
            logger.info(
                "parity pair '%s': %s reached, drill-down halted",
                self.pair_name,
                self.stats.halted_by,
            )
        return self.stats.halted

    def download_by_depth(self, cells: list[Unanswered]) -> bool:
        """Downloads these cells, those of one depth at once; True when the breaker says to
        stop."""
        depths: dict[int, list[Unanswered]] = {}
        for unanswered in cells:
            depths.setdefault(unanswered.depth, []).append(unanswered)
        return any(
            self.download(depth, {u.cell for u in listed}, max(u.rows for u in listed))
            for depth, listed in sorted(depths.items())
        )

    def reuse(self, last: LastDifferences, cells: set[int]) -> bool:
        """Takes these cells' row differences from the last result; True when the breaker says
        to stop."""
        reused = last.rows(frozenset(cells))
        self.frames.append(reused if self.breaker is None else reused.localCheckpoint())
        self.stats.segments_reused += len(cells)
        logger.info(
            "parity pair '%s': %d differing segments unchanged on both sides since run %s:"
            " their row differences reused, not drilled into",
            self.pair_name,
            len(cells),
            last.run_id,
        )
        breaker = self.breaker
        self.stats.halted_by = None if breaker is None else breaker(self.frames[-1], self.compared)
        return self.stats.halted

    def union(self) -> DataFrame | None:
        return reduce(DataFrame.unionByName, self.frames) if self.frames else None
