"""The row differences a pair's last result found, read back from the history
(parity_run_differences) as canonical_join gave them, for hashdiff to reuse in the segments it
finds again unchanged on both sides (algorithms/last_differences.py).

The history publishes each difference by value: a whole row as a JSON object of its canonical
values, a value mismatch as one row per differing value. Read back, a whole row is its values in
column order again; a value mismatch is its differing values, and NULL on both sides for every
other column, which the verdict (results/summary.py) finds equal, as it found the values that
were. So judging them again gives what the last result published. A pair that publishes no value
of some column (masking) cannot be read back: it keeps no segments; nor does a result that listed
only examples of a column's values within tolerance (results/examples.py): the others would be
lost, and the next result's counts wrong (pipelines/hashdiff.py).
"""

from __future__ import annotations

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

from parity.algorithms.last_differences import LastDifferences
from parity.algorithms.segment_state import SegmentState
from parity.pipelines.incremental import Rerun
from parity.plan import PairPlan
from parity.sides.spark import cell_sql
from parity.values.rows import VALUE_MISMATCH

# The history's relation of every run's differences (macros/plan/previous_states.sql).
DIFFERENCES = "differences_relation"


def keeps_segments(pair: PairPlan) -> bool:
    """Whether the pair's differences read back exactly: no value masked, no column hashed on a
    tolerance grid (a last result's values would be stale for values moved within it)."""
    masking = pair.masking
    hidden = masking.everything or masking.columns
    return not hidden and not pair.gridded_columns


def last_differences(spark: SparkSession, pair: PairPlan, rerun: Rerun) -> LastDifferences | None:
    """The last result's segments and differences, where they may be reused."""
    relation = pair.previous_state.get(DIFFERENCES)
    if rerun.segments_since is None or not relation or not keeps_segments(pair):
        return None
    run_id, segments = rerun.segments_since

    def rows(cells: frozenset[int]) -> DataFrame:
        found = last_row_differences(spark, str(relation), run_id, pair)
        keys = len(pair.source.key_columns)
        return in_cells(found, keys, pair.source.key_is_position, segments, cells)

    return LastDifferences(run_id, segments, rows)


def last_row_differences(
    spark: SparkSession, relation: str, run_id: str, pair: PairPlan
) -> DataFrame:
    """The run's row differences of the pair, as canonical_join gives them."""
    published = spark.table(relation).where(
        (F.col("run_id") == run_id) & (F.col("pair_name") == pair.name)
    )
    if len(pair.source.key_columns) == 1:
        key = F.array(F.col("key"))
    else:
        key = F.from_json("key", "array<string>")
    names = pair.source.column_names
    whole_rows = published.where(F.col("column_name").isNull()).select(
        key.alias("key"),
        # Never NULL in the history, whose columns all are nullable: said so to Spark, as the
        # published difference requires.
        F.coalesce("kind", F.lit(VALUE_MISMATCH)).alias("kind"),
        *[
            _in_order(F.from_json(f"{side}_canonical", "map<string,string>"), names, side)
            for side in ("source", "target")
        ],
    )
    by_value = (
        published.where(F.col("column_name").isNotNull())
        .groupBy(key.alias("key"))
        .agg(
            *[
                F.map_from_entries(
                    F.collect_list(F.struct("column_name", f"{side}_canonical"))
                ).alias(side)
                for side in ("source", "target")
            ]
        )
        .select(
            "key",
            F.lit(VALUE_MISMATCH).alias("kind"),
            *[_in_order(F.col(side), names, side) for side in ("source", "target")],
        )
    )
    return whole_rows.unionByName(by_value)


def _in_order(values: Column, names: tuple[str, ...], side: str) -> Column:
    """A side's values (a map by column name) in column order; NULL where it has no row."""
    ordered = F.array(*[values[name] for name in names]).cast("array<string>")
    return F.when(values.isNotNull(), ordered).alias(f"{side}_values")


def in_cells(
    row_diffs: DataFrame,
    keys: int,
    key_is_position: bool,
    segments: SegmentState,
    cells: frozenset[int],
) -> DataFrame:
    """The row differences (of a pair of ``keys`` key columns) whose key lies in these cells of
    the segments' space and depth."""
    cell = cell_sql(key_position_sql(keys, key_is_position), segments.space, segments.depth)
    listed = ", ".join(str(c) for c in sorted(cells))
    return row_diffs.where(F.expr(f"{cell} in ({listed})"))


def key_position_sql(keys: int, key_is_position: bool) -> str:
    """The position of a row difference's key (``key``, its canonical fields) as the sides
    computed it: an integer key is its own position, any other key the row hash of its canonical
    fields (macros/canonical/row_hash.sql)."""
    if key_is_position:
        return "cast(key[0] as bigint)"
    fields = [
        f"case when key[{i}] is null then '-'"
        f" else concat(cast(char_length(key[{i}]) as string), ':', key[{i}]) end"
        for i in range(keys)
    ]
    return f"cast(conv(substring(md5(concat({', '.join(fields)})), 18, 15), 16, 10) as bigint)"
