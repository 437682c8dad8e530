"""A side held by the Spark session itself: the plan's canonical SQL, filtered and grouped."""

from __future__ import annotations

from functools import reduce

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

from parity.plan import SidePlan
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, Profile
from parity.values.rows import Row

LONG_SAFE = 2**62
# Up to this many cells, a filter lists them; past it, a semi-join (_in_cells).
LITERAL_CELLS = 4096


class SparkSide:
    def __init__(self, spark: SparkSession, pair_name: str, plan: SidePlan) -> None:
        self.pair_name = pair_name
        self.plan = plan
        self.canonical: DataFrame = spark.sql(plan.canonical_sql)
        # The rows compared: a NULL key matches no key (Profile).
        self.frame: DataFrame = self.canonical.where(~_null_key(plan))
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
        return Profile(
            Checksum(int(row["compared_rows"] or 0), int(row["total"] or 0)),
            row["low"],
            row["high"],
            rows=int(row["rows"] or 0),
            null_keys=int(row["null_keys"] or 0),
            duplicate_keys=int(row["duplicate_keys"]),
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
