"""A side held by another engine, reached through DB-API: checksums are computed inside it, and
only checksums and the rows of small differing cells come out."""

from __future__ import annotations

from typing import Any

from parity.engines import connect
from parity.errors import ParityError
from parity.keyspace import KeySpace
from parity.plan import SidePlan
from parity.rowdiff import Row
from parity.sides import Checksum, Profile


class SqlSide:
    def __init__(self, pair_name: str, plan: SidePlan) -> None:
        self.pair_name = pair_name
        self.plan = plan
        self.where = f"{plan.side} relation {plan.relation_name} ({plan.dialect})"
        self.connection = connect(plan.dialect, plan.connection_env, pair_name, self.where)
        self.keys = [f"__parity_k{i}" for i in range(len(plan.key_names))]
        self.values = [f"__parity_c{i}" for i in range(len(plan.column_names))]

    def close(self) -> None:
        self.connection.close()

    def profile(self) -> Profile:
        null_key = " or ".join(f"{k} is null" for k in self.keys)
        rows, total, low, high, null_keys = self._query(
            f"select count(*), {self.plan.checksum_sql}, min(__parity_pos), max(__parity_pos),"
            f" sum(case when {null_key} then 1 else 0 end)"
            f" from ({self.plan.canonical_sql}) as canonical"
        )[0]
        if null_keys:
            raise ParityError(
                self.pair_name,
                f"{self.where} has {null_keys} rows with a NULL in key column(s) "
                f"{', '.join(self.plan.key_names)}",
            )
        low, high = (None if v is None else int(v) for v in (low, high))
        return Profile(Checksum(int(rows), int(total or 0)), low, high)

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        found = self._query(
            f"select {self._cell(space, depth)} as cell, count(*), {self.plan.checksum_sql}"
            f" from ({self.plan.canonical_sql}) as canonical"
            f" where {self._within(space, {parent_depth: parents})} group by 1"
        )
        return {int(cell): Checksum(int(rows), int(total)) for cell, rows, total in found}

    def rows(self, space: KeySpace, cells: dict[int, frozenset[int]]) -> list[Row]:
        found = self._query(
            f"select {', '.join(self.keys + self.values)}"
            f" from ({self.plan.canonical_sql}) as canonical where {self._within(space, cells)}"
        )
        count = len(self.keys)
        return [(tuple(r[:count]), tuple(r[count:])) for r in found]

    def _cell(self, space: KeySpace, depth: int) -> str:
        # Only integers computed here go into the SQL.
        numbers = {
            "low": space.low,
            "scale": space.scale,
            "cells": space.cells(depth),
            "width": space.width,
        }
        sql = self.plan.cell_sql
        for name, number in numbers.items():
            sql = sql.replace("{" + name + "}", str(int(number)))
        return sql

    def _within(self, space: KeySpace, cells: dict[int, frozenset[int]]) -> str:
        return " or ".join(
            f"{self._cell(space, depth)} in ({', '.join(str(int(i)) for i in sorted(indexes))})"
            for depth, indexes in sorted(cells.items())
        )

    def _query(self, sql: str) -> list[tuple[Any, ...]]:
        try:
            cursor = self.connection.cursor()
            cursor.execute(sql)
            return cursor.fetchall()
        except Exception as error:  # each driver has its own error classes
            raise ParityError(
                self.pair_name, f"{self.where} could not run the pair's SQL: {error}"
            ) from error
