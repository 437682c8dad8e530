"""The rows an apply replaced, kept for an undo beside the corrected relation, in its own engine
(so hidden values never leave it): a table named after the relation (`<table>__parity_undo`)
holding exact copies of each corrected key's rows as they were, and per key a hash of its rows as
the apply left them, which an undo checks the relation still holds. Only the last apply that
wrote is kept: its first write clears the rows kept for the one before."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from parity.sync.sql.key_rows import BATCH, KeyRows
from parity.sync.sql.sessions import WriteSession

APPLY, AFTER = "parity_apply_id", "parity_after"
SUFFIX = "__parity_undo"


def kept_relation(relation: str, session: WriteSession) -> str:
    """The table beside ``relation`` (its name as the plan renders it, quoted) that keeps its
    rows."""
    return relation[: -len(session.quote)] + SUFFIX + session.quote


def state_hash(rows: list[dict[str, str | None]]) -> str:
    """One key's rows, copies counted and in any order, as a hash of their canonical values."""
    texts = sorted(json.dumps(row, sort_keys=True, ensure_ascii=False) for row in rows)
    return hashlib.sha256(json.dumps(texts).encode("utf-8")).hexdigest()


def relation_columns(session: WriteSession, connection: Any, relation: str) -> list[str]:
    return session.columns(connection, f"select * from {relation} where 1 = 0")


class KeptRows:
    def __init__(self, session: WriteSession, connection: Any, key_rows: KeyRows, apply_id: str):
        self.session, self.connection, self.key_rows = session, connection, key_rows
        self.apply_id = apply_id
        self.relation = key_rows.relation
        self.name = kept_relation(self.relation, session)
        # The keys kept, typed, by their canonical texts.
        self.keys: dict[tuple[str | None, ...], list[Any]] = {}

    def prepare(self) -> None:
        """The table, made to the relation's columns (again, where they changed since it was
        made), first in the apply's transaction: PostgreSQL and DuckDB take DDL into it, and
        MySQL, whose DDL commits what came before it, has read and locked nothing yet."""
        session, quoted = self.session, self.session.quoted
        self.columns = relation_columns(session, self.connection, self.relation)
        made = (
            f"create table {{}} {self.name} as select"
            f" cast(null as {session.text_type}) as {quoted(APPLY)},"
            f" cast(null as {session.text_type}) as {quoted(AFTER)}, __parity_relation.*"
            " from (select 1 as __parity_one) as __parity_none"
            # The outer join's columns are nullable in MySQL too: a key's hash holds no values.
            f" left join {self.relation} as __parity_relation on 1 = 0"
        )
        session.run(self.connection, made.format("if not exists"), [])
        if relation_columns(session, self.connection, self.name) != [APPLY, AFTER, *self.columns]:
            session.run(self.connection, f"drop table {self.name}", [])
            session.run(self.connection, made.format(""), [])

    def before(self, keys: dict[tuple[str | None, ...], list[Any]]) -> None:
        """Keeps the rows of ``keys`` (typed values by their canonical texts) as they are, those
        the apply has not kept yet, in one statement: before it changes them."""
        session = self.session
        new = {texts: key for texts, key in keys.items() if texts not in self.keys}
        if not new:
            return
        if not self.keys:
            session.run(self.connection, f"delete from {self.name}", [])
        self.keys.update(new)
        columns = ", ".join(session.quoted(name) for name in self.columns)
        session.run(
            self.connection,
            f"insert into {self.name} ({session.quoted(APPLY)}, {columns})"
            f" select cast({session.mark(1)} as {session.text_type}), {columns}"
            f" from {self.relation} where {self.key_rows.any_of(len(new), 2)}",
            [self.apply_id, *(v for key in new.values() for v in key)],
        )

    def after(self) -> None:
        """Keeps each changed key's hash, as the apply leaves its rows: the keys read back and
        their hashes written a batch at a time."""
        session, count = self.session, len(self.key_rows.keys)
        keys = ", ".join(self.key_rows.keys)
        kept = list(self.keys.items())
        for start in range(0, len(kept), BATCH):
            batch = kept[start : start + BATCH]
            found = self.key_rows.rows_of(self.connection, [key for _, key in batch])
            marks = iter(session.marks((2 + count) * len(batch)))
            values = ", ".join(
                f"({', '.join(next(marks) for _ in range(2 + count))})" for _ in batch
            )
            params = [
                value
                for texts, key in batch
                for value in (
                    self.apply_id,
                    state_hash([row for _, row in found.get(texts, [])]),
                    *key,
                )
            ]
            session.run(
                self.connection,
                f"insert into {self.name} ({session.quoted(APPLY)}, {session.quoted(AFTER)},"
                f" {keys}) values {values}",
                params,
            )
