"""Corrections written to a relation outside Spark: in one transaction, through a connection of
the apply's own (the pair's `sync.apply_connection_env`, never the reading one; write_sessions.py),
with other writers kept out while each row is read back as the comparison read it (the plan's
canonical SQL) and changed only where it still holds what the run saw (the before-image).
Values are bound as parameters, never pasted into the SQL."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from parity.errors import ParityError
from parity.plan import PairPlan, SidePlan
from parity.sides.published_errors import published, secrets_of
from parity.sync.decisions import DELETE, INSERT, UPDATE, CorrectedColumns, Written, decide
from parity.sync.write_sessions import WRITE_SESSIONS, WriteSession


def write_corrections(
    pair: PairPlan, corrected: SidePlan, corrections: Iterable[dict[str, Any]], variable: str
) -> Written:
    session = WRITE_SESSIONS[corrected.dialect]
    target = os.environ.get(variable)
    if not target:
        raise ParityError(pair.name, f"sync.apply_connection_env names {variable}, which is unset")
    reader = _Reader(CorrectedColumns(pair, corrected), corrected, session)
    written = Written()
    try:
        connection = session.connect(target)
        try:
            if session.lock:
                session.run(connection, session.lock.format(relation=corrected.relation_name), [])
            for correction in corrections:
                _correct(connection, reader, correction, written)
            connection.commit()
        finally:
            # Rolls back what was not committed.
            connection.close()
    except session.errors() as error:
        reason = published(str(error).strip(), secrets_of(target))
        raise ParityError(
            pair.name,
            f"the apply to {corrected.relation_name} failed, nothing was written: {reason}",
        ) from None
    return written


class _Reader:
    """The corrected relation's rows of one key, as canonical text by source column name, each
    with what names it: its row id, or its canonical values."""

    def __init__(self, columns: CorrectedColumns, corrected: SidePlan, session: WriteSession):
        self.columns, self.session = columns, session
        self.relation = corrected.relation_name
        self.keys = [session.quoted(name) for name in corrected.key_names]
        self.canonical = corrected.canonical_columns
        values = list(self.canonical[len(self.keys) :])
        named = [session.row_id] if session.row_id else list(self.canonical)
        matches = " and ".join(
            f"{key} = {mark}"
            for key, mark in zip(self.keys, session.marks(len(self.keys)), strict=True)
        )
        self.select = (
            f"select {', '.join(named + values)} from {self.relation} as __parity_relation"
            f" where {matches}" + ("" if session.row_id else " for update")
        )
        self.named = len(named)

    def rows(self, connection: Any, key: list[Any]) -> list[tuple[Any, dict[str, str | None]]]:
        found = self.session.run(connection, self.select, key)
        return [
            (
                row[0] if self.session.row_id else tuple(row[: self.named]),
                dict(zip(self.columns.sources, row[self.named :], strict=False)),
            )
            for row in found
        ]

    def one_row(self, row: Any, first: int) -> tuple[str, list[Any]]:
        """The condition naming one row (its marks numbered from ``first``), and its
        parameters."""
        session = self.session
        if session.row_id:
            return f"{session.row_id} = {session.mark(first)}", [row]
        marks = session.marks(len(row), first)
        condition = " and ".join(
            f"{sql} <=> {mark}" for sql, mark in zip(self.canonical, marks, strict=True)
        )
        return f"{condition} limit 1", list(row)


def _correct(
    connection: Any, reader: _Reader, correction: dict[str, Any], written: Written
) -> None:
    session = reader.session
    key = reader.columns.key_values(correction["key"])
    decision = decide(reader.columns, correction, reader.rows(connection, key))
    names = [session.quoted(reader.columns.names[name]) for name in decision.values]
    values = list(decision.values.values())
    relation = reader.relation
    if decision.action == UPDATE:
        marks = session.marks(len(names))
        sets = ", ".join(f"{name} = {mark}" for name, mark in zip(names, marks, strict=True))
        condition, named = reader.one_row(decision.rows[0], len(names) + 1)
        session.run(
            connection, f"update {relation} set {sets} where {condition}", [*values, *named]
        )
    elif decision.action == DELETE:
        for row in decision.rows:
            condition, named = reader.one_row(row, 1)
            session.run(connection, f"delete from {relation} where {condition}", named)
    elif decision.action == INSERT:
        columns = ", ".join([*reader.keys, *names])
        marks = ", ".join(session.marks(len(reader.keys) + len(names)))
        for _ in range(decision.copies):
            session.run(
                connection, f"insert into {relation} ({columns}) values ({marks})", [*key, *values]
            )
    written.add(decision, correction["key"])
