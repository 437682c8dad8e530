"""Corrections written to a relation outside Spark: in one transaction, through a connection of
the apply's own (the pair's `sync.apply_connection_env`, never the reading one; sessions.py),
with other writers kept out while each row is read back as the comparison read it (key_rows.py)
and changed only where it still holds what the run saw (the before-image). The rows it replaces
are kept beside the relation for an undo (kept_rows.py). Values are bound as parameters, never
pasted into the SQL."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from parity.plan import PairPlan, SidePlan
from parity.sync.decisions import (
    CHANGES,
    DELETE,
    INSERT,
    UPDATE,
    CorrectedColumns,
    Decision,
    Written,
    decide,
    decide_key,
)
from parity.sync.sql.kept_rows import KeptRows
from parity.sync.sql.key_rows import BATCH, KeyRows
from parity.sync.sql.sessions import WRITE_SESSIONS, writing


def write_corrections(
    pair: PairPlan,
    corrected: SidePlan,
    corrections: Iterable[dict[str, Any]],
    apply_id: str,
    right: dict[str, list[dict[str, str | None]]],
) -> Written:
    """``right``: the right side's rows of each key held more than once (``whole_key``)."""
    written = Written()
    with writing(pair, corrected, "the apply to") as (session, connection):
        key_rows = KeyRows(CorrectedColumns(pair, corrected), corrected, session)
        kept = KeptRows(session, connection, key_rows, apply_id)
        if session.begin:
            session.run(connection, session.begin, [])
        if session.lock:
            session.run(connection, session.lock.format(relation=corrected.relation_name), [])
        kept.prepare()
        keyed: dict[str, list[dict[str, Any]]] = {}
        for correction in corrections:
            keyed.setdefault(correction["key"], []).append(correction)
        published = list(keyed)
        for start in range(0, len(published), BATCH):
            batch = {key: keyed[key] for key in published[start : start + BATCH]}
            _correct_batch(connection, key_rows, kept, batch, right, written)
        kept.after()
        connection.commit()
    if kept.keys:
        written.previous_location = kept.name
    return written


def statement_shapes(pair: PairPlan, corrected: SidePlan, corrections: list[dict[str, Any]]) -> str:
    """The statements an apply of ``corrections`` changes the relation with, each with how many
    rows it is run for (by the run's counts: a dry run reads nothing), parameters as marks."""
    session = WRITE_SESSIONS[corrected.dialect]
    key_rows = KeyRows(CorrectedColumns(pair, corrected), corrected, session)
    counted: dict[str, int] = {}
    for correction in corrections:
        written = [*json.loads(correction["new_values"] or "{}"), *correction["values_at_apply"]]
        names = [session.quoted(key_rows.columns.names[name]) for name in written]
        shape = {
            DELETE: _deleted,
            UPDATE: _updated,
            INSERT: _inserted,
        }[correction["operation"]](key_rows, names)
        counted[shape] = counted.get(shape, 0) + correction["copies"]
    return "\n".join(
        f"{count} {'row' if count == 1 else 'rows'}: {shape}" for shape, count in counted.items()
    )


def _deleted(key_rows: KeyRows, _: list[str]) -> str:
    return f"delete from {key_rows.relation} where {key_rows.one_row(1)}"


def _updated(key_rows: KeyRows, names: list[str]) -> str:
    marks = key_rows.session.marks(len(names))
    sets = ", ".join(f"{name} = {mark}" for name, mark in zip(names, marks, strict=True))
    return f"update {key_rows.relation} set {sets} where {key_rows.one_row(len(names) + 1)}"


def _inserted(key_rows: KeyRows, names: list[str]) -> str:
    columns = ", ".join([*key_rows.keys, *names])
    marks = ", ".join(key_rows.session.marks(len(key_rows.keys) + len(names)))
    return f"insert into {key_rows.relation} ({columns}) values ({marks})"


def _correct_batch(
    connection: Any,
    key_rows: KeyRows,
    kept: KeptRows,
    batch: dict[str, list[dict[str, Any]]],
    right: dict[str, list[dict[str, str | None]]],
    written: Written,
) -> None:
    """The corrections of a batch of keys: their rows read at once (and, in MySQL, locked),
    each key's decided from them, the rows of the keys it changes kept at once, then written,
    key by key in the corrections' order (a key's deletes before its inserts)."""
    columns = key_rows.columns
    typed = {key: columns.key_values(key) for key in batch}
    found = key_rows.rows_of(connection, list(typed.values()))
    decided = {}
    for key, together in batch.items():
        rows = found.get(columns.key_texts(key), [])
        if together[0]["whole_key"]:
            decided[key] = decide_key(columns, together, rows, right.get(key, []))
        else:
            decided[key] = [decide(columns, correction, rows) for correction in together]
    changed = [
        key for key, decisions in decided.items() if any(d.action in CHANGES for d in decisions)
    ]
    kept.before({columns.key_texts(key): typed[key] for key in changed})
    for key, decisions in decided.items():
        for decision in decisions:
            _carry_out(connection, key_rows, typed[key], decision)
            written.add(decision, key)


def _carry_out(connection: Any, key_rows: KeyRows, key: list[Any], decision: Decision) -> None:
    session = key_rows.session
    names = [session.quoted(key_rows.columns.names[name]) for name in decision.values]
    values = list(decision.values.values())
    if decision.action == UPDATE:
        named = key_rows.row_params(decision.rows[0], key)
        session.run(connection, _updated(key_rows, names), [*values, *named])
    elif decision.action == DELETE:
        for row in decision.rows:
            session.run(connection, _deleted(key_rows, names), key_rows.row_params(row, key))
    elif decision.action == INSERT:
        for _ in range(decision.copies):
            session.run(connection, _inserted(key_rows, names), [*key, *values])
