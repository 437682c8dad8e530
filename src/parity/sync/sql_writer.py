"""Corrections written to a relation outside Spark: in one transaction, through a connection of
the apply's own (the pair's `sync.apply_connection_env`, never the reading one; write_sessions.py),
with other writers kept out while each row is read back as the comparison read it (the plan's
canonical SQL) and changed only where it still holds what the run saw (the before-image).
Values are bound as parameters, never pasted into the SQL."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from parity.errors import ParityError
from parity.plan import PairPlan, SidePlan
from parity.sides.published_errors import published, secrets_of
from parity.sync.typed_values import typed_value
from parity.sync.write_sessions import WRITE_SESSIONS
from parity.values.masking import hashed


@dataclass
class Written:
    """What an apply did to the corrected relation, rows counted with their copies."""

    inserted: int = 0
    deleted: int = 0
    updated: int = 0
    # Corrections the relation held already (an earlier apply, or a writer since).
    unchanged: int = 0
    # Keys whose row no longer held what the run saw: left alone.
    conflicts: list[str] = field(default_factory=list)


def write_corrections(
    pair: PairPlan, corrected: SidePlan, corrections: Iterable[dict[str, Any]], variable: str
) -> Written:
    session = WRITE_SESSIONS[corrected.dialect]
    target = os.environ.get(variable)
    if not target:
        raise ParityError(pair.name, f"sync.apply_connection_env names {variable}, which is unset")
    reader = _Reader(pair, corrected, session.row_id, session.mark)
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

    def __init__(self, pair: PairPlan, corrected: SidePlan, row_id: str, mark: str) -> None:
        self.row_id, self.mark = row_id, mark
        keys = len(corrected.key_names)
        self.keys = [_quoted(name) for name in corrected.key_names]
        self.columns = [_quoted(name) for name in corrected.column_names]
        self.key_profiles = corrected.column_profiles[:keys]
        self.value_profiles = dict(
            zip(pair.source.column_names, corrected.column_profiles[keys:], strict=True)
        )
        self.names = dict(zip(pair.source.column_names, self.columns, strict=True))
        self.masking = pair.masking
        self.relation = corrected.relation_name
        canonical = ", ".join(corrected.canonical_columns[keys:]) or "null"
        matches = " and ".join(f"{key} = {mark}" for key in self.keys)
        self.select = (
            f"select {row_id}, {canonical} from {self.relation} as __parity_relation"
            f" where {matches}"
        )
        self.sources = pair.source.column_names

    def key_values(self, key: str) -> list[Any]:
        texts = json.loads(key) if len(self.keys) > 1 else [key]
        return [typed_value(p, t) for p, t in zip(self.key_profiles, texts, strict=True)]

    def rows(self, connection: Any, key: list[Any]) -> list[tuple[str, dict[str, str | None]]]:
        found = connection.execute(self.select, key).fetchall()
        return [(row[0], dict(zip(self.sources, row[1:], strict=False))) for row in found]

    def shown(self, name: str, text: str | None) -> str | None:
        """A current value as the before-image holds it: hashed where the pair hides it."""
        return hashed(text) if text is not None and self.masking.hides(name) else text


def _correct(
    connection: Any, reader: _Reader, correction: dict[str, Any], written: Written
) -> None:
    key = reader.key_values(correction["key"])
    rows = reader.rows(connection, key)
    operation = correction["operation"]
    new = json.loads(correction["new_values"]) if correction["new_values"] else {}
    if operation == "update":
        before = json.loads(correction["before_image"])
        held = [rid for rid, row in rows if _holds(reader, row, before)]
        if len(held) == 1:
            sets = ", ".join(f"{reader.names[name]} = {reader.mark}" for name in new)
            values = [typed_value(reader.value_profiles[name], text) for name, text in new.items()]
            connection.execute(
                f"update {reader.relation} set {sets} where {reader.row_id} = {reader.mark}",
                [*values, held[0]],
            )
            written.updated += 1
        elif len(rows) == 1 and _holds(reader, rows[0][1], new):
            written.unchanged += 1
        else:
            written.conflicts.append(correction["key"])
    elif operation == "delete":
        before = json.loads(correction["before_image"])
        held = [rid for rid, row in rows if _holds(reader, row, before)]
        if len(held) >= correction["copies"]:
            for rid in held[: correction["copies"]]:
                connection.execute(
                    f"delete from {reader.relation} where {reader.row_id} = {reader.mark}", [rid]
                )
            written.deleted += correction["copies"]
        elif not rows:
            written.unchanged += 1
        else:
            written.conflicts.append(correction["key"])
    elif not rows:
        columns = ", ".join([*reader.keys, *(reader.names[name] for name in new)])
        marks = ", ".join([reader.mark] * (len(reader.keys) + len(new)))
        values = [typed_value(reader.value_profiles[name], text) for name, text in new.items()]
        for _ in range(correction["copies"]):
            connection.execute(
                f"insert into {reader.relation} ({columns}) values ({marks})", [*key, *values]
            )
        written.inserted += correction["copies"]
    elif all(_holds(reader, row, new) for _, row in rows):
        written.unchanged += 1
    else:
        written.conflicts.append(correction["key"])


def _holds(reader: _Reader, row: dict[str, str | None], image: dict[str, str | None]) -> bool:
    return all(reader.shown(name, row.get(name)) == text for name, text in image.items())


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
