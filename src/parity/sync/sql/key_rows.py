"""A relation outside Spark read one key at a time, as the comparison reads it: each row's
canonical text by source column name (the plan's canonical SQL for that side), with what names
the row within the transaction (its row id, or its canonical values where the engine has none)."""

from __future__ import annotations

from typing import Any

from parity.plan import SidePlan
from parity.sync.decisions import CorrectedColumns
from parity.sync.sql.sessions import WriteSession

# The keys one statement reads or copies: a statement per key cost DuckDB 1 to 2 ms whatever it
# did (bench/README.md, "Applies"); a few hundred keys' marks stay far below every engine's limit.
BATCH = 500


class KeyRows:
    def __init__(self, columns: CorrectedColumns, corrected: SidePlan, session: WriteSession):
        self.columns, self.session = columns, session
        self.relation = corrected.relation_name
        self.keys = [session.quoted(name) for name in corrected.key_names]
        self.canonical = corrected.canonical_columns
        values = list(self.canonical[len(self.keys) :])
        named = [session.row_id] if session.row_id else list(self.canonical)
        self.listed = ", ".join(named + values)
        self.locked = "" if session.row_id else " for update"
        self.select = (
            f"select {self.listed} from {self.relation} as __parity_relation"
            f" where {self.matching(1)}{self.locked}"
        )
        self.named = len(named)

    def matching(self, first: int) -> str:
        """The condition on the key columns, their marks numbered from ``first``."""
        marks = self.session.marks(len(self.keys), first)
        return " and ".join(f"{key} = {mark}" for key, mark in zip(self.keys, marks, strict=True))

    def any_of(self, keys: int, first: int = 1) -> str:
        """The condition on the key columns matching any of ``keys`` keys, their marks
        numbered from ``first``, key by key."""
        marks = iter(self.session.marks(len(self.keys) * keys, first))
        if len(self.keys) == 1:
            return f"{self.keys[0]} in ({', '.join(marks)})"
        one = " and ".join(f"{key} = {{}}" for key in self.keys)
        return " or ".join(
            f"({one.format(*(next(marks) for _ in self.keys))})" for _ in range(keys)
        )

    def rows(self, connection: Any, key: list[Any]) -> list[tuple[Any, dict[str, str | None]]]:
        return [self._read(row) for row in self.session.run(connection, self.select, key)]

    def rows_of(
        self, connection: Any, keys: list[list[Any]]
    ) -> dict[tuple[str | None, ...], list[tuple[Any, dict[str, str | None]]]]:
        """The rows of many keys, read at once, by their key's canonical text."""
        count = len(self.keys)
        select = (
            f"select {', '.join(self.canonical[:count])}, {self.listed}"
            f" from {self.relation} as __parity_relation"
            f" where {self.any_of(len(keys))}{self.locked}"
        )
        found: dict[tuple[str | None, ...], list[tuple[Any, dict[str, str | None]]]] = {}
        for row in self.session.run(connection, select, [v for key in keys for v in key]):
            found.setdefault(tuple(row[:count]), []).append(self._read(row[count:]))
        return found

    def _read(self, row: tuple[Any, ...]) -> tuple[Any, dict[str, str | None]]:
        """A row as read: what names it, and its canonical text by source column name."""
        return (
            row[0] if self.session.row_id else tuple(row[: self.named]),
            dict(zip(self.columns.sources, row[self.named :], strict=False)),
        )

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
