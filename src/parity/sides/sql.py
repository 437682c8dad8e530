"""A side held by another engine, reached through DB-API: checksums are computed inside it, and
only checksums and the rows of small differing cells come out."""

from __future__ import annotations

from typing import Any

from parity.errors import ParityError
from parity.plan import SidePlan
from parity.sides.connections import QueryError, connect
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, Profile
from parity.values.rows import Row


class SqlSide:
    def __init__(self, pair_name: str, plan: SidePlan) -> None:
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
        self.keys = [f"__parity_k{i}" for i in range(len(plan.key_names))]
        self.values = [f"__parity_c{i}" for i in range(len(plan.column_names))]
        # A NULL key matches no key: such rows are counted (Profile), never compared.
        self.null_key = "(" + " or ".join(f"{k} is null" for k in self.keys) + ")"

    def close(self) -> None:
        self.connection.close()

    def profile(self) -> Profile:
        keys, null_key = ", ".join(self.keys), self.null_key
        rows, compared_rows, total, low, high, null_keys, duplicate_keys = self._query(
            f"select sum(n), sum(case when {null_key} then 0 else n end),"
            f" sum(case when {null_key} then 0 else total end),"
            f" min(case when {null_key} then null else low end),"
            f" max(case when {null_key} then null else high end),"
            f" sum(case when {null_key} then n else 0 end),"
            f" sum(case when {null_key} or n = 1 then 0 else 1 end)"
            f" from (select {keys}, count(*) as n, {self.plan.checksum_sql} as total,"
            f" min(__parity_pos) as low, max(__parity_pos) as high"
            f" from ({self.plan.canonical_sql}) as canonical group by {keys}) as per_key"
        )[0]
        low, high = (None if v is None else int(v) for v in (low, high))
        return Profile(
            Checksum(int(compared_rows or 0), int(total or 0)),
            low,
            high,
            rows=int(rows or 0),
            null_keys=int(null_keys or 0),
            duplicate_keys=int(duplicate_keys or 0),
        )

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        found = self._query(
            f"select {self._cell(space, depth)} as cell, count(*), {self.plan.checksum_sql}"
            f" from ({self.plan.canonical_sql}) as canonical"
            f" where {self._within(space, parent_depth, parents)} and not {self.null_key}"
            " group by 1"
        )
        return {int(cell): Checksum(int(rows), int(total)) for cell, rows, total in found}

    def rows(self, space: KeySpace, depth: int, cells: frozenset[int]) -> list[Row]:
        found = self._query(
            f"select {', '.join(self.keys + self.values)}"
            f" from ({self.plan.canonical_sql}) as canonical"
            f" where {self._within(space, depth, cells)} and not {self.null_key}"
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

    def _within(self, space: KeySpace, depth: int, cells: frozenset[int]) -> str:
        return f"{self._cell(space, depth)} in ({', '.join(str(int(i)) for i in sorted(cells))})"

    def _query(self, sql: str) -> list[tuple[Any, ...]]:
        try:
            return self.connection.query(sql)
        except QueryError as error:
            raise ParityError(
                self.pair_name, f"{self.where} could not run the pair's SQL: {error}"
            ) from error
