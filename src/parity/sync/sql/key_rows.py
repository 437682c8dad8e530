"""A relation outside Spark read one key at a time, as the comparison reads it: each row's
canonical text by source column name (the plan's canonical SQL for that side), with what names
the row within the transaction (its row id, or its canonical values where the engine has none)."""

from __future__ import annotations

from typing import Any

from parity.plan import SidePlan
from parity.sync.decisions import CorrectedColumns
from parity.sync.sql.sessions import WriteSession


class KeyRows:
    def __init__(self, columns: CorrectedColumns, corrected: SidePlan, session: WriteSession):
        self.columns, self.session = columns, session
        self.relation = corrected.relation_name
        self.keys = [session.quoted(name) for name in corrected.key_names]
        self.canonical = corrected.canonical_columns
        values = list(self.canonical[len(self.keys) :])
        named = [session.row_id] if session.row_id else list(self.canonical)
        self.select = (
            f"select {', '.join(named + values)} from {self.relation} as __parity_relation"
            f" where {self.matching(1)}" + ("" if session.row_id else " for update")
        )
        self.named = len(named)

    def matching(self, first: int) -> str:
        """The condition on the key columns, their marks numbered from ``first``."""
        marks = self.session.marks(len(self.keys), first)
        return " and ".join(f"{key} = {mark}" for key, mark in zip(self.keys, marks, strict=True))

    def rows(self, connection: Any, key: list[Any]) -> list[tuple[Any, dict[str, str | None]]]:
        found = self.session.run(connection, self.select, key)
        return [
            (
                row[0] if self.session.row_id else tuple(row[: self.named]),
                dict(zip(self.columns.sources, row[self.named :], strict=False)),
            )
            for row in found
        ]

    def one_row(self, first: int) -> str:
        """The condition naming one row, its marks numbered from ``first``: its row id, or its
        key and canonical values (changing the first row that holds them; the key, first, lets
        the engine find the key's rows by its index rather than compute every row's canonical
        text)."""
        session = self.session
        if session.row_id:
            return f"{session.row_id} = {session.mark(first)}"
        marks = session.marks(len(self.canonical), first + len(self.keys))
        condition = " and ".join(
            f"{sql} <=> {mark}" for sql, mark in zip(self.canonical, marks, strict=True)
        )
        return f"{self.matching(first)} and {condition} limit 1"

    def row_params(self, row: Any, key: list[Any]) -> list[Any]:
        """The parameters of one_row for ``row`` (what rows() named it by) of ``key``."""
        return [row] if self.session.row_id else [*key, *row]
