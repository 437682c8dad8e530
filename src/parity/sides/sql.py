"""A side held by another engine, reached through DB-API: checksums are computed inside it, and
only checksums and the rows of small differing cells come out. Its queries are the plan's,
whole; only the cells they select are bound, as parameters.

Where its key is a single integer and its dialect numbers blocks (the plan's `blocks_sql`), the
first pass groups it by block of 2^BLOCK_BITS consecutive keys and keeps those blocks here: the
checksums of any cells of a key space aligned to them are summed from the blocks, without
querying the engine again."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pyspark.sql import DataFrame, SparkSession

from parity.errors import ParityError
from parity.plan import SidePlan
from parity.sides.connections import QueryError, connect
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, KeyCounts, Profile

# A block holds 2^BLOCK_BITS consecutive keys (macros/canonical/cell_number.sql: key_block).
BLOCK_BITS = 5
BIT_MASK = (1 << 64) - 1
# Cells spanning at most this many keys in all are fetched by their keys, listed (rows_of_keys_sql):
# an index on the key finds them without reading the rest of the table.
LISTED_KEYS = 1 << 16


class SqlSide:
    def __init__(self, spark: SparkSession, pair_name: str, plan: SidePlan) -> None:
        self.spark = spark
        self.pair_name = pair_name
        self.plan = plan
        self.where = f"{plan.side} relation {plan.relation_name} ({plan.dialect})"
        self.connection = connect(
            plan.dialect,
            plan.connection_env,
            pair_name,
            self.where,
            plan.statement_timeout_seconds,
        )
        # The kept profile: (first position, rows, checksum) of each block with compared rows.
        self._blocks: list[tuple[int, int, int]] | None = None

    @property
    def key_block(self) -> int:
        """How many consecutive positions one kept block spans (1 when none is kept)."""
        return 1 << BLOCK_BITS if self.plan.blocks_sql else 1

    def __enter__(self) -> SqlSide:
        return self

    def __exit__(self, *_: object) -> None:
        self.connection.close()

    def profile(self) -> Profile:
        if self.plan.blocks_sql:
            return self._profile_by_block()
        rows, compared_rows, total, low, high, null_keys, duplicate_keys = self._query(
            self.plan.profile_sql
        )[0]
        low, high = (None if v is None else int(v) for v in (low, high))
        compared = int(compared_rows or 0)
        return Profile(
            Checksum(compared, int(total or 0)),
            low,
            high,
            KeyCounts(int(rows or 0), compared, int(null_keys or 0), int(duplicate_keys or 0)),
        )

    def _profile_by_block(self) -> Profile:
        """One pass grouped by block. A block whose rows outnumber the keys its bits mark holds
        a duplicated key; only such blocks' keys are counted, by a second query."""
        blocks, null_keys, suspects = [], 0, []
        for block, rows, total, bits in self._query(self.plan.blocks_sql):
            if block is None:  # the rows with a NULL key
                null_keys = int(rows)
                continue
            block, rows = int(block), int(rows)
            blocks.append((block << BLOCK_BITS, rows, int(total)))
            if rows > (int(bits) & BIT_MASK).bit_count():
                suspects.append(block)
        self._blocks = blocks
        duplicates = self._query(self.plan.duplicates_sql, [suspects])[0][0] if suspects else 0
        compared = sum(rows for _, rows, _ in blocks)
        # Block bounds stand for the key range: every block lies inside one cell of an aligned
        # space anyway.
        low = min((first for first, _, _ in blocks), default=None)
        high = max((first for first, _, _ in blocks), default=None)
        return Profile(
            Checksum(compared, sum(total for _, _, total in blocks)),
            low,
            None if high is None else high + self.key_block - 1,
            KeyCounts(compared + null_keys, compared, null_keys, int(duplicates)),
        )

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        if self._blocks is not None and space.aligned(self.key_block):
            summed: dict[int, list[int]] = defaultdict(lambda: [0, 0])
            for first, rows, total in self._blocks:
                if space.cell_of(first, parent_depth) in parents:
                    cell = summed[space.cell_of(first, depth)]
                    cell[0] += rows
                    cell[1] += total
            return {cell: Checksum(rows, total) for cell, (rows, total) in summed.items()}
        found = self._query(
            self.plan.checksums_sql, [*_listed(space, parent_depth, parents), space.cells(depth)]
        )
        return {int(cell): Checksum(int(rows), int(total)) for cell, rows, total in found}

    def rows(self, space: KeySpace, depth: int, cells: frozenset[int]) -> DataFrame:
        """The rows come through the driver once, as the engine's client returns them, and are
        compared in Spark."""
        bounds = [space.bounds(depth, cell) for cell in sorted(cells)]
        if self.plan.rows_of_keys_sql and sum(end - start for start, end in bounds) <= LISTED_KEYS:
            keys = [key for start, end in bounds for key in range(start, end)]
            found = self._query(self.plan.rows_of_keys_sql, [keys])
        else:
            found = self._query(self.plan.rows_sql, _listed(space, depth, cells))
        names = [*self.plan.key_columns, *self.plan.value_columns]
        return self.spark.createDataFrame(found, ", ".join(f"`{n}` string" for n in names))

    def _query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        try:
            return self.connection.query(sql, params)
        except QueryError as error:
            raise ParityError(
                self.pair_name, f"{self.where} could not run the pair's SQL: {error}"
            ) from error


def _listed(space: KeySpace, depth: int, cells: frozenset[int]) -> list[Any]:
    """The bound parameters that select these cells at ``depth``, in the order the plan's queries
    number them (macros/plan/remote_queries.sql)."""
    return [space.low, space.scale, space.width, space.cells(depth), sorted(cells)]
