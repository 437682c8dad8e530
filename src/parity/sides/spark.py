"""A side held by the Spark session itself: the plan's canonical SQL, filtered and grouped, and
for joindiff its native select."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import reduce

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

from parity.plan import SidePlan
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, KeyCounts, Profile
from parity.values.rows import Row

LONG_SAFE = 2**62
# Up to this many cells, a filter lists them; past it, a semi-join (_in_cells).
LITERAL_CELLS = 4096
# Which side a row of rows_of_keys comes from.
IN_SOURCE = "__parity_in_source"


class SparkSide:
    def __init__(self, spark: SparkSession, pair_name: str, plan: SidePlan) -> None:
        self.pair_name = pair_name
        self.plan = plan
        self.canonical: DataFrame = spark.sql(plan.canonical_sql)
        # The rows compared: a NULL key matches no key (Profile).
        self.frame: DataFrame = self.canonical.where(~_null_key(plan))
        # joindiff's first pass: every row's canonical key and native hash.
        self.native: DataFrame | None = spark.sql(plan.native_sql) if plan.native_sql else None
        self._checksum = F.expr(plan.checksum_sql)

    def __enter__(self) -> SparkSide:
        return self

    def __exit__(self, *_: object) -> None:
        """Nothing to close: the session outlives the pair."""

    def profile(self) -> Profile:
        keys = self.plan.key_columns
        per_key = self.canonical.groupBy(*keys).agg(
            F.count(F.lit(1)).alias("rows"),
            self._checksum.alias("total"),
            F.min(self.plan.position_column).alias("low"),
            F.max(self.plan.position_column).alias("high"),
        )
        compared = ~_null_key(self.plan)
        row = per_key.agg(
            F.sum("rows").alias("rows"),
            F.sum(F.when(compared, F.col("rows"))).alias("compared_rows"),
            F.sum(F.when(compared, F.col("total"))).alias("total"),
            F.min(F.when(compared, F.col("low"))).alias("low"),
            F.max(F.when(compared, F.col("high"))).alias("high"),
            F.sum(F.when(~compared, F.col("rows"))).alias("null_keys"),
            F.count_if(compared & (F.col("rows") > 1)).alias("duplicate_keys"),
        ).first()
        compared = int(row["compared_rows"] or 0)
        return Profile(
            Checksum(compared, int(row["total"] or 0)),
            row["low"],
            row["high"],
            KeyCounts(
                int(row["rows"] or 0),
                compared,
                int(row["null_keys"] or 0),
                int(row["duplicate_keys"]),
            ),
        )

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        grouped = (
            self._in_cells(space, parent_depth, parents)
            .groupBy(cell_column(self.plan.position_column, space, depth).alias("cell"))
            .agg(F.count(F.lit(1)).alias("rows"), self._checksum.alias("total"))
        )
        return {r["cell"]: Checksum(r["rows"], int(r["total"])) for r in grouped.collect()}

    def rows(self, space: KeySpace, depth: int, cells: frozenset[int]) -> list[Row]:
        keys, values = self.plan.key_columns, self.plan.value_columns
        selected = self._in_cells(space, depth, cells).select(*keys, *values).collect()
        return [(tuple(r[k] for k in keys), tuple(r[v] for v in values)) for r in selected]

    def _in_cells(self, space: KeySpace, depth: int, indexes: frozenset[int]) -> DataFrame:
        """The rows of this side in these cells at ``depth``. A few cells are a literal list; many
        (a whole level can differ) a broadcast semi-join: a filter of a million literals exhausts
        the driver's heap before it runs."""
        cell = cell_column(self.plan.position_column, space, depth)
        if len(indexes) <= LITERAL_CELLS:
            return self.frame.where(cell.isin(sorted(indexes)))
        wanted = self.frame.sparkSession.createDataFrame(
            [(i,) for i in sorted(indexes)], "cell bigint"
        )
        return self.frame.join(
            F.broadcast(wanted), cell.cast("bigint") == wanted["cell"], "left_semi"
        )


@contextmanager
def rows_of_keys(
    source: SparkSide, target: SparkSide, keys: DataFrame, count: int
) -> Iterator[tuple[DataFrame, DataFrame]]:
    """Both sides' canonical rows of the ``count`` keys listed in ``keys`` (a frame of key
    columns), read in one job and cached while the context lasts: the comparison reads them
    several times. A filter, not a semi-join: Spark pushes a filter below the canonical
    select, so only these rows are canonicalized, where a semi-join would wait above it. Up to
    LITERAL_CELLS keys are listed as literals, which Spark probes as a hash set; more, by an IN
    subquery."""
    names = list(source.plan.key_columns)
    both = source.frame.withColumn(IN_SOURCE, F.lit(True)).unionByName(
        target.frame.withColumn(IN_SOURCE, F.lit(False))
    )
    if count <= LITERAL_CELLS:
        listed = [tuple(row) for row in keys.collect()]
        if len(names) == 1:
            chosen = both.where(F.col(names[0]).isin([key[0] for key in listed]))
        else:
            wanted = [F.struct(*[F.lit(v) for v in key]) for key in listed]
            chosen = both.where(F.struct(*names).isin(*wanted))
    else:
        columns = ", ".join(names)
        chosen = both.sparkSession.sql(
            f"select * from {{rows}} where ({columns}) in (select {columns} from {{keys}})",
            rows=both,
            keys=keys,
        )
    kept = chosen.persist()
    try:
        kept.count()
        yield (
            kept.where(F.col(IN_SOURCE)).drop(IN_SOURCE),
            kept.where(~F.col(IN_SOURCE)).drop(IN_SOURCE),
        )
    finally:
        kept.unpersist()


def release_checkpoint(frame: DataFrame) -> None:
    """Frees a frame kept by localCheckpoint: unpersist() leaves a checkpoint's blocks to the
    JVM's garbage collection, so its RDD is unpersisted itself."""
    frame._jdf.queryExecution().analyzed().rdd().unpersist(False)


def _null_key(plan: SidePlan) -> Column:
    return reduce(lambda a, b: a | b, [F.col(k).isNull() for k in plan.key_columns])


def cell_column(position: str, space: KeySpace, depth: int) -> Column:
    """The cell number at ``depth`` of each row's key position, computed exactly as
    KeySpace.cell_of does: in bigint where that cannot overflow, else in decimal(38, 0)."""
    cells = space.cells(depth)
    if space.scale == 1 and space.width * cells < LONG_SAFE:
        return F.expr(f"(({position} - {space.low}) * {cells}) div {space.width}")
    units = f"(cast({position} as decimal(38, 0)) - {space.low}BD) div {space.scale}BD"
    return F.expr(f"(cast({units} as decimal(38, 0)) * {cells}BD) div {space.width}BD")
