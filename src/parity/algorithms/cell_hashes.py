"""joindiff's first pass where the key is its own position (a single integer key): both sides'
native row hashes summed per cell of 64 consecutive keys, in one Spark job whose aggregation is
partial, so only a few sums per cell and task cross the shuffle, never a row.

Each cell also carries, per side, the OR of one bit per key (1 << key mod 64): a cell whose rows
outnumber the bits set holds a duplicated key, and only such cells are grouped by key
afterwards, to count the duplicated keys exactly. A cell whose counts or sums differ between
the sides holds a differing row; only the rows of those cells are compared canonically. When
they are many, a second native pass by key inside them (key_hashes.py) narrows them to the
differing keys first, so no more rows are canonicalized than the pass by key would.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from pyspark.sql import Column, DataFrame, Observation
from pyspark.sql import functions as F

from parity.algorithms.key_hashes import SIDES, key_hash_pass, sums, sums_equal
from parity.sides.spark import (
    IN_SOURCE,
    SparkSide,
    key_bit,
    key_cell,
    release_checkpoint,
    rows_of_cells,
)
from parity.values.profile import KeyCounts

# Past this share of the larger side's rows in differing cells, and this many rows, they are
# narrowed by key first: below it, canonicalizing them costs less than the pass by key's scan.
NARROW_SHARE = 1 / 4
NARROW_ROWS = 1 << 17
CELL = "__parity_cell"


@dataclass(frozen=True)
class CellPass:
    counts: tuple[KeyCounts, KeyCounts]
    keys: list[str]
    # The cells that differ or hold a duplicated key, checkpointed: release() frees them.
    flagged: DataFrame
    differing_cells: int
    # Both sides' rows in the differing cells.
    differing_rows: int

    @property
    def found_nothing(self) -> bool:
        return not self.differing_cells

    @property
    def differing_units(self) -> int:
        """What compared_rows may be limited to the first of: differing cells."""
        return self.differing_cells

    @property
    def found(self) -> str:
        return f"{self.differing_cells} cells of 64 keys differ ({self.differing_rows} rows)"

    @contextmanager
    def compared_rows(
        self, source: SparkSide, target: SparkSide, limit: int | None = None
    ) -> Iterator[tuple[DataFrame, DataFrame]]:
        """The canonical rows to compare: those of the differing cells (or of the first
        ``limit`` of them in key order), or, when they hold many rows (NARROW_SHARE and
        NARROW_ROWS), of the differing keys in them (a native pass by key over their rows)."""
        larger = max(c.rows for c in self.counts)
        differing, count, rows = self.differing, self.differing_cells, self.differing_rows
        if limit is not None and count > limit:
            # Their rows are not counted: as many per cell as on average.
            differing, count, rows = (
                differing.orderBy("cell").limit(limit),
                limit,
                rows * limit // count,
            )
        if rows <= max(NARROW_SHARE * larger, NARROW_ROWS):
            yield rows_of_cells(source, target, differing, count)
            return
        cells = differing.select(F.col("cell").alias(CELL))
        in_cells = [
            side.native.withColumn(CELL, key_cell(F.col(side.plan.position_column))).join(
                cells, on=CELL, how="left_semi"
            )
            for side in (source, target)
        ]
        narrowed = key_hash_pass(*in_cells, self.keys, source.plan.native_hash_column)
        try:
            with narrowed.compared_rows(source, target) as rows:
                yield rows
        finally:
            narrowed.release()

    @property
    def differing(self) -> DataFrame:
        """The differing cells: one column, ``cell``."""
        return self.flagged.where("differs").select("cell")

    def release(self) -> None:
        release_checkpoint(self.flagged)


def cell_hash_pass(source: SparkSide, target: SparkSide, keys: list[str]) -> CellPass:
    position, hash_column = source.plan.position_column, source.plan.native_hash_column
    per_cell = (
        _tagged(
            source,
            target,
            [
                key_cell(F.col(position)).alias(CELL),
                key_bit(position).alias("__parity_bit"),
                # The native hash leaves the key out (the pass by key groups on it): here a
                # cell holds many keys, so the key enters the hash.
                F.xxhash64(hash_column, position).alias(hash_column),
            ],
        )
        .groupBy(CELL)
        .agg(*sums(hash_column), *_bits())
    )
    null_key = F.col(CELL).isNull()
    same = sums_equal()
    differs = ~null_key & ~same
    duplicated = {
        side: ~null_key & (F.col(f"{side}_rows") > F.bit_count(f"{side}_bits")) for side in SIDES
    }
    both_rows = F.col("source_rows") + F.col("target_rows")
    observed = Observation("parity_cell_counts")
    metrics = [
        F.count_if(differs).alias("differing_cells"),
        F.sum(F.when(differs, both_rows).otherwise(0)).alias("differing_rows"),
    ]
    for side in SIDES:
        rows = F.col(f"{side}_rows")
        metrics += [
            F.sum(rows).alias(f"{side}_rows"),
            F.sum(F.when(null_key, rows).otherwise(0)).alias(f"{side}_null_keys"),
            F.count_if(duplicated[side]).alias(f"{side}_duplicated_cells"),
        ]
    # The flagged cells, kept in the executors and cut from the plan that found them, in the
    # one job that also counts rows and cells (the observation).
    flagged = (
        per_cell.observe(observed, *metrics)
        .where(differs | duplicated["source"] | duplicated["target"])
        .select(
            F.col(CELL).alias("cell"),
            differs.alias("differs"),
            *[duplicated[side].alias(f"{side}_duplicated") for side in SIDES],
        )
        .localCheckpoint()
    )
    counted = observed.get
    try:
        duplicates = {side: 0 for side in SIDES}
        if counted["source_duplicated_cells"] or counted["target_duplicated_cells"]:
            duplicates = _duplicate_keys(source, target, keys, flagged)
    except BaseException:
        release_checkpoint(flagged)
        raise
    counts = tuple(_counts(counted, side, duplicates[side]) for side in SIDES)
    return CellPass(
        (counts[0], counts[1]),
        keys,
        flagged,
        int(counted["differing_cells"]),
        int(counted["differing_rows"] or 0),
    )


def _tagged(source: SparkSide, target: SparkSide, columns: list[Column | str]) -> DataFrame:
    """Both sides' native rows, these columns, each with the side it comes from."""
    return source.native.select(*columns, F.lit(True).alias(IN_SOURCE)).unionByName(
        target.native.select(*columns, F.lit(False).alias(IN_SOURCE))
    )


def _bits() -> list[Column]:
    """Per cell and side: the OR of its keys' bits."""
    return [
        F.bit_or(F.when(F.col(IN_SOURCE) == (side == "source"), F.col("__parity_bit"))).alias(
            f"{side}_bits"
        )
        for side in SIDES
    ]


def _duplicate_keys(
    source: SparkSide, target: SparkSide, keys: list[str], flagged: DataFrame
) -> dict[str, int]:
    """Per side, the keys held by more than one row, counted by key in the cells whose rows
    outnumber their keys only."""
    suspects = flagged.where("source_duplicated or target_duplicated").select(
        F.col("cell").alias(CELL)
    )
    position = source.plan.position_column
    rows = _tagged(source, target, [key_cell(F.col(position)).alias(CELL), *keys]).join(
        F.broadcast(suspects), on=CELL, how="left_semi"
    )
    counted = (
        rows.groupBy(IN_SOURCE, *keys)
        .count()
        .where("count > 1")
        .groupBy(IN_SOURCE)
        .count()
        .collect()
    )
    found = {("source" if r[IN_SOURCE] else "target"): int(r["count"]) for r in counted}
    return {side: found.get(side, 0) for side in SIDES}


def _counts(counted: dict, side: str, duplicate_keys: int) -> KeyCounts:
    rows, null_keys = int(counted[f"{side}_rows"] or 0), int(counted[f"{side}_null_keys"] or 0)
    return KeyCounts(rows, rows - null_keys, null_keys, duplicate_keys)
