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
                connection.execute(session.lock.format(relation=corrected.relation_name))
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
    """The corrected relation's rows of one key, as canonical text by source column name."""

    def __init__(self, columns: CorrectedColumns, corrected: SidePlan, session: WriteSession):
        self.columns, self.session = columns, session
        self.relation = corrected.relation_name
        self.keys = [_quoted(name) for name in corrected.key_names]
        canonical = ", ".join(corrected.canonical_columns[len(self.keys) :]) or "null"
        matches = " and ".join(f"{key} = {session.mark}" for key in self.keys)
        self.select = (
            f"select {session.row_id}, {canonical} from {self.relation} as __parity_relation"
            f" where {matches}"
        )

    def rows(self, connection: Any, key: list[Any]) -> list[tuple[Any, dict[str, str | None]]]:
        found = connection.execute(self.select, key).fetchall()
        return [(row[0], dict(zip(self.columns.sources, row[1:], strict=False))) for row in found]


def _correct(
    connection: Any, reader: _Reader, correction: dict[str, Any], written: Written
) -> None:
    key = reader.columns.key_values(correction["key"])
    decision = decide(reader.columns, correction, reader.rows(connection, key))
    mark, row_id, relation = reader.session.mark, reader.session.row_id, reader.relation
    names = [_quoted(reader.columns.names[name]) for name in decision.values]
    values = list(decision.values.values())
    if decision.action == UPDATE:
        sets = ", ".join(f"{name} = {mark}" for name in names)
        connection.execute(
            f"update {relation} set {sets} where {row_id} = {mark}", [*values, *decision.rows]
        )
    elif decision.action == DELETE:
        for row in decision.rows:
            connection.execute(f"delete from {relation} where {row_id} = {mark}", [row])
    elif decision.action == INSERT:
        columns = ", ".join([*reader.keys, *names])
        marks = ", ".join([mark] * (len(reader.keys) + len(names)))
        for _ in range(decision.copies):
            connection.execute(
                f"insert into {relation} ({columns}) values ({marks})", [*key, *values]
            )
    written.add(decision, correction["key"])


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
