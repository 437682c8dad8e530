"""A side held by another engine, reached through DB-API: checksums are computed inside it, and
only checksums and the rows of small differing cells come out. Its queries are the plan's,
whole; only the cells they select are bound, as parameters."""

from __future__ import annotations

from typing import Any

from pyspark.sql import DataFrame, SparkSession

from parity.errors import ParityError
from parity.plan import SidePlan
from parity.sides.connections import QueryError, connect
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, KeyCounts, Profile


class SqlSide:
    # Each checksum query reads the relation: no profile is kept to align cells with.
    key_block = 1

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

    def __enter__(self) -> SqlSide:
        return self

    def __exit__(self, *_: object) -> None:
        self.connection.close()

    def profile(self) -> Profile:
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

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        found = self._query(
            self.plan.checksums_sql, [*_listed(space, parent_depth, parents), space.cells(depth)]
        )
        return {int(cell): Checksum(int(rows), int(total)) for cell, rows, total in found}

    def rows(self, space: KeySpace, depth: int, cells: frozenset[int]) -> DataFrame:
        """The rows come through the driver once, as the engine's client returns them, and are
        compared in Spark."""
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
