"""A side held by the Spark session itself: the plan's canonical SQL, filtered and grouped, and
for joindiff its native select."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, reduce

from pyspark.sql import Column, DataFrame, Observation, SparkSession
from pyspark.sql import functions as F

from parity.plan import SidePlan
from parity.sides.file_views import register
from parity.sides.side import DUPLICATE_EXAMPLES, DuplicatedKey
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, KeyCounts, Profile
from parity.values.spark_literals import identifier, string_literal

LONG_SAFE = 2**62
# Up to this many cells, a filter lists them; past it, a semi-join (_in_cells).
LITERAL_CELLS = 4096
# Up to this many, the wanted rows of a semi-join are sent to every task (_rows_matching).
BROADCAST_WANTED = 1 << 20
# At most this many position ranges go to the file reader beside a listed filter
# (position_ranges); past it, the nearest are merged.
PUSHED_RANGES = 64
# Which side a row comes from, where both sides' rows are one frame.
IN_SOURCE = "__parity_in_source"
# A key position shifted right by this is its cell (key_cell) of consecutive integer keys: a cell
# holds 2^CELL_SHIFT = 64 keys, one bit each in a bigint (algorithms/cell_hashes.py).
CELL_SHIFT = 6
# The block of 2^CELL_SHIFT consecutive keys a row falls in (key_cell), where a frame groups by it.
BLOCK = "__parity_block"


class SparkSide:
    def __init__(self, spark: SparkSession, pair_name: str, plan: SidePlan) -> None:
        self.spark = spark
        self.pair_name = pair_name
        self.plan = plan
        if plan.file_view is not None:  # files Spark reads with their schema, through a view
            register(spark, plan.file_view)
        # joindiff's first pass: every row's canonical key and native hash.
        self.native: DataFrame | None = spark.sql(plan.native_sql) if plan.native_sql else None
        self._checksum = F.expr(plan.checksum_sql)
        # The first pass's exact checksum (Profile.exact_total), in the same scan.
        self._exact = F.expr(plan.exact_checksum_sql or plan.checksum_sql)
        # hashdiff's profile, kept in the executors: per block of 2^CELL_SHIFT consecutive keys
        # where the key is its own position, else per key; each row a position (the block's
        # first), its rows and checksum. The checksums of any cells aligned to key_block are
        # summed from it, without reading the side again.
        self._summary: DataFrame | None = None

    @cached_property
    def canonical(self) -> DataFrame:
        """The canonical rows, analysed when first asked for: a joindiff whose first pass finds
        nothing differing never asks, and the canonical select of a wide side costs Spark tenths
        of a second to parse and analyse."""
        return self.spark.sql(self.plan.canonical_sql)

    @cached_property
    def frame(self) -> DataFrame:
        """The rows compared: a NULL key matches no key (Profile)."""
        return self.canonical.where(~_null_key(self.plan))

    @property
    def key_block(self) -> int:
        """How many consecutive positions one row of the kept profile spans: a key space
        aligned to them (KeySpace.aligned) is answered from the profile."""
        return 1 << CELL_SHIFT if self.plan.key_is_position else 1

    def __enter__(self) -> SparkSide:
        return self

    def __exit__(self, *_: object) -> None:
        """The session outlives the pair: only what the side kept in it is released."""
        self._release()

    def _release(self) -> None:
        if self._summary is not None:
            release_checkpoint(self._summary)
            self._summary = None

    def profile(self) -> Profile:
        self._release()  # a profile taken again replaces the one kept
        return self._profile_by_block() if self.plan.key_is_position else self._profile_by_key()

    def _profile_by_key(self) -> Profile:
        """One scan grouped by key; the keys with their positions, rows and checksums are kept
        (narrower than the rows, and never canonicalized again)."""
        position = self.plan.position_column
        per_key = self.canonical.groupBy(*self.plan.key_columns).agg(
            F.count(F.lit(1)).alias("rows"),
            self._checksum.alias("total"),
            self._exact.alias("exact"),
            # A key's position is a function of the key: one per group.
            F.min(position).alias(position),
        )
        compared = ~_null_key(self.plan)
        observed = Observation("parity_keys")
        self._summary = (
            per_key.observe(
                observed,
                *_totals(compared, position, position),
                F.count_if(compared & (F.col("rows") > 1)).alias("duplicate_keys"),
            )
            .where(compared)
            .select(*self.plan.key_columns, position, "rows", "total")
            .localCheckpoint()
        )
        row = observed.get
        return _profile(row, int(row["duplicate_keys"]))

    def _profile_by_block(self) -> Profile:
        """One scan, grouped by block of 2^CELL_SHIFT consecutive keys with partial aggregation,
        so only about one sum per block and task crosses the shuffle, never a row. Each block
        ORs one bit per key (1 << key mod 64): a block whose rows outnumber its bits holds a
        duplicated key, and only such blocks' keys are grouped afterwards, to count them."""
        position = self.plan.position_column
        per_block = self.canonical.groupBy(key_cell(F.col(position)).alias(BLOCK)).agg(
            F.count(F.lit(1)).alias("rows"),
            self._checksum.alias("total"),
            self._exact.alias("exact"),
            F.bit_or(key_bit(position)).alias("bits"),
            F.min(position).alias(position),
            F.max(position).alias("high"),
        )
        compared = F.col(BLOCK).isNotNull()
        duplicated = compared & (F.col("rows") > F.bit_count("bits"))
        observed = Observation("parity_blocks")
        self._summary = (
            per_block.observe(
                observed,
                *_totals(compared, position, "high"),
                F.count_if(duplicated).alias("duplicated_blocks"),
            )
            .where(compared)
            .select(
                # Each block lies inside one cell of an aligned space: its first position
                # stands for it.
                F.shiftleft(BLOCK, CELL_SHIFT).alias(position),
                "rows",
                "total",
                duplicated.alias("duplicated"),
            )
            .localCheckpoint()
        )
        row = observed.get
        return _profile(row, self._duplicate_keys() if row["duplicated_blocks"] else 0)

    def _duplicate_keys(self) -> int:
        """The keys held by more than one row, counted by key in the blocks whose rows outnumber
        their keys only."""
        position = self.plan.position_column
        suspects = self._summary.where("duplicated").select(key_cell(F.col(position)).alias(BLOCK))
        return (
            self.frame.select(position)
            .join(F.broadcast(suspects), key_cell(F.col(position)) == suspects[BLOCK], "left_semi")
            .groupBy(position)
            .count()
            .where("count > 1")
            .count()
        )

    def duplicated_keys(self) -> list[DuplicatedKey]:
        keys, position = list(self.plan.key_columns), self.plan.position_column
        order = [position] if self.plan.key_is_position else []
        found = (
            self.frame.groupBy(*keys)
            .agg(F.count(F.lit(1)).alias("rows"), F.min(position).alias(position))
            .where("rows > 1")
            .orderBy(*order, *keys)
            .limit(DUPLICATE_EXAMPLES)
            .collect()
        )
        return [(tuple(row[key] for key in keys), int(row["rows"])) for row in found]

    def answers_from_profile(self, space: KeySpace, depth: int) -> bool:
        return self._summary is not None and space.aligned(self.key_block)

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        position = self.plan.position_column
        if self.answers_from_profile(space, depth):
            frame, counted, total = self._summary, F.sum("rows"), F.sum("total")
        else:
            frame, counted, total = self.frame, F.count(F.lit(1)), self._checksum
        grouped = (
            _in_cells(frame, position, space, parent_depth, parents)
            .groupBy(F.expr(cell_sql(position, space, depth)).alias("cell"))
            .agg(counted.alias("rows"), total.alias("total"))
        )
        return {r["cell"]: Checksum(int(r["rows"]), int(r["total"])) for r in grouped.collect()}

    def rows(self, space: KeySpace, depth: int, cells: frozenset[int]) -> DataFrame:
        position, keys = self.plan.position_column, list(self.plan.key_columns)
        if not self.plan.key_is_position and self._summary is not None:
            # The kept profile lists each key with its hashed position: the cells' rows are
            # found by key, so no row's key is hashed again.
            wanted = _in_cells(self._summary, position, space, depth, cells).select(*keys)
            rows = self.frame.join(F.broadcast(wanted), on=keys, how="left_semi")
        else:
            rows = _in_cells(self.frame, position, space, depth, cells)
            if self.plan.key_is_position and len(cells) <= LITERAL_CELLS:
                bounds = [space.bounds(depth, i) for i in cells]
                rows = rows.where(position_ranges(position, bounds))
        return rows.select(*keys, *self.plan.value_columns)


def _totals(compared: Column, low: str, high: str) -> list[Column]:
    """A profile's totals over its groups (per key or per block, ``compared`` when the group's
    rows have no NULL key; ``low`` and ``high`` its least and greatest position), as _profile
    reads them."""
    return [
        F.sum("rows").alias("rows"),
        F.sum(F.when(compared, F.col("rows"))).alias("compared_rows"),
        F.sum(F.when(compared, F.col("total"))).alias("total"),
        F.min(F.when(compared, F.col(low))).alias("low"),
        F.max(F.when(compared, F.col(high))).alias("high"),
        F.sum(F.when(~compared, F.col("rows"))).alias("null_keys"),
        F.sum(F.when(compared, F.col("exact"))).alias("exact"),
    ]


def _profile(row: dict, duplicate_keys: int) -> Profile:
    """A profile from its totals (an observation of _totals and the duplicate count)."""
    compared = int(row["compared_rows"] or 0)
    return Profile(
        Checksum(compared, int(row["total"] or 0)),
        row["low"],
        row["high"],
        KeyCounts(int(row["rows"] or 0), compared, int(row["null_keys"] or 0), duplicate_keys),
        int(row["exact"] or 0),
    )


def _in_cells(
    frame: DataFrame, position: str, space: KeySpace, depth: int, indexes: frozenset[int]
) -> DataFrame:
    """The rows of ``frame`` whose ``position`` lies in these cells at ``depth``. A few cells
    are a literal list; many (a whole level can differ) a broadcast semi-join: a filter of a
    million literals exhausts the driver's heap before it runs."""
    cell = cell_sql(position, space, depth)
    if len(indexes) <= LITERAL_CELLS:
        # One SQL expression of integers: one call into the JVM, where a list of literal
        # Columns costs a call for each.
        listed = ", ".join(str(i) for i in sorted(indexes))
        return frame.where(F.expr(f"{cell} in ({listed})") if listed else F.lit(False))
    wanted = frame.sparkSession.createDataFrame([(i,) for i in sorted(indexes)], "cell bigint")
    return frame.join(
        F.broadcast(wanted), F.expr(cell).cast("bigint") == wanted["cell"], "left_semi"
    )


def rows_of_keys(
    source: SparkSide, target: SparkSide, keys: DataFrame, count: int
) -> tuple[DataFrame, DataFrame]:
    """Both sides' canonical rows of the ``count`` keys listed in ``keys`` (a frame of key
    columns, canonical text)."""
    names = [identifier(n) for n in source.plan.key_columns]
    return _rows_matching(source, target, names, keys, count, string_literal)


def rows_of_cells(
    source: SparkSide, target: SparkSide, cells: DataFrame, count: int
) -> tuple[DataFrame, DataFrame]:
    """Both sides' canonical rows in the ``count`` key cells listed in ``cells`` (a frame of one
    column, ``cell``: key_cell of the key position)."""
    position = source.plan.position_column

    def ranges(listed: list[tuple]) -> Column:
        return position_ranges(
            position, [(c << CELL_SHIFT, (c + 1) << CELL_SHIFT) for (c,) in listed]
        )

    cell_sql = f"shiftright({position}, {CELL_SHIFT})"
    return _rows_matching(source, target, [cell_sql], cells, count, str, ranges)


def _rows_matching(
    source: SparkSide,
    target: SparkSide,
    matched_sql: list[str],
    wanted: DataFrame,
    count: int,
    literal: Callable[[object], str],
    pushed: Callable[[list[tuple]], Column] | None = None,
) -> tuple[DataFrame, DataFrame]:
    """Both sides' canonical rows whose ``matched_sql`` values are a row of ``wanted``. A
    filter, not a semi-join: Spark pushes a filter below the canonical select, so only these
    rows are canonicalized, where a semi-join would wait above it. Up to LITERAL_CELLS wanted
    rows are listed as literals (``literal`` spells one), which Spark probes as a hash set, and
    ``pushed`` of them, if given, is added for the file reader; more, by an IN subquery."""
    if count <= LITERAL_CELLS:
        listed = [tuple(row) for row in wanted.collect()]
        condition = F.expr(listed_sql(matched_sql, listed, literal))
        if pushed is not None:
            condition = condition & pushed(listed)
        return source.frame.where(condition), target.frame.where(condition)
    columns = ", ".join(matched_sql)
    if count <= BROADCAST_WANTED:
        # Checkpointed, the wanted rows have no size Spark can see: unhinted, it joins them by
        # sorting both sides, every row of each table shuffled and sorted (7 of the 11 s where
        # 7,540 cells of a 10M-row pair differed).
        wanted = F.broadcast(wanted)
    return tuple(
        side.frame.sparkSession.sql(
            f"select * from {{rows}} where ({columns}) in (select * from {{wanted}})",
            rows=side.frame,
            wanted=wanted,
        )
        for side in (source, target)
    )


def listed_sql(
    matched_sql: list[str], listed: list[tuple], literal: Callable[[object], str]
) -> str:
    """Whether a row's ``matched_sql`` values are one of the ``listed`` tuples, as one SQL
    expression: one call into the JVM, where a Column per literal cost a call each (a second
    per thousand keys). A compound key is first tested on its first column alone, a hash probe
    of one value that most rows fail, before the tuple of all, which builds a struct per row:
    that struct, on every row of both sides, was most of the second pass's scan."""
    if not listed:
        return "false"
    first = ", ".join(dict.fromkeys(literal(values[0]) for values in listed))
    if len(matched_sql) == 1:
        return f"{matched_sql[0]} in ({first})"
    tuples = ", ".join("(" + ", ".join(map(literal, values)) + ")" for values in listed)
    return f"{matched_sql[0]} in ({first}) and ({', '.join(matched_sql)}) in ({tuples})"


def position_ranges(position: str, ranges: list[tuple[int, int]]) -> Column:
    """Whether a row's ``position`` (the key itself, key_is_position) lies in one of these
    half-open ranges, or in a gap between them closed to keep at most PUSHED_RANGES: a superset,
    added beside an exact filter. Spark hands comparisons of a column to the file reader, which
    skips the Parquet row groups and pages whose statistics lie outside every range: a few
    differing cells of a table stored in key order are read without the rest of it."""
    merged: list[list[int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    gaps = sorted(range(1, len(merged)), key=lambda i: merged[i][0] - merged[i - 1][1])
    closed = set(gaps[: max(len(merged) - PUSHED_RANGES, 0)])
    kept: list[list[int]] = []
    for index, (start, end) in enumerate(merged):
        if index in closed:
            kept[-1][1] = end
        else:
            kept.append([start, end])
    # One SQL expression of the internal position alias and integers: one call into the JVM.
    within = " or ".join(f"({position} >= {start} and {position} < {end})" for start, end in kept)
    return F.expr(within or "false")


def key_bit(position: str) -> Column:
    """One bit per key position within its cell of 2^CELL_SHIFT (1 << position mod 64): the OR
    of a cell's bits counts its distinct keys. Spark's shiftleft takes its shift as a literal in
    Python, so this is SQL."""
    return F.expr(f"shiftleft(1L, cast({position} & {(1 << CELL_SHIFT) - 1} as int))")


def key_cell(position: Column) -> Column:
    """The cell of 2^CELL_SHIFT consecutive key positions a position falls in: a shift, so
    negative positions floor like positive ones."""
    return F.shiftright(position, CELL_SHIFT)


def release_checkpoint(frame: DataFrame) -> None:
    """Frees a frame kept by localCheckpoint: unpersist() leaves a checkpoint's blocks to the
    JVM's garbage collection, so its RDD is unpersisted itself."""
    frame._jdf.queryExecution().analyzed().rdd().unpersist(False)


def _null_key(plan: SidePlan) -> Column:
    return reduce(lambda a, b: a | b, [F.col(k).isNull() for k in plan.key_columns])


def cell_sql(position: str, space: KeySpace, depth: int) -> str:
    """The cell number at ``depth`` of each row's key position, computed exactly as
    KeySpace.cell_of does: by a shift where the space allows one (KeySpace.shift), else in
    bigint where that cannot overflow, else in decimal(38, 0)."""
    cells, shift = space.cells(depth), space.shift(depth)
    if shift is not None and space.scale * space.width < LONG_SAFE:
        return f"shiftright({position} - {space.low}, {shift})"
    if space.width * max(space.scale, cells) < LONG_SAFE:
        return f"((({position} - {space.low}) div {space.scale}) * {cells}) div {space.width}"
    units = f"(cast({position} as decimal(38, 0)) - {space.low}BD) div {space.scale}BD"
    return f"(cast({units} as decimal(38, 0)) * {cells}BD) div {space.width}BD"
