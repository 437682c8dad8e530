"""What one correction does to the rows the corrected relation holds of its key, decided from
those rows as the comparison reads them (canonical text by source column name): compare-and-set
on the before-image. The same for every engine; each writer carries the decision out."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from parity.plan import PairPlan, SidePlan
from parity.sync.typed_values import typed_value
from parity.values.masking import hashed

# What names a row within the apply: a PostgreSQL ctid, a DuckDB rowid, a position in Spark.
RowId = TypeVar("RowId")

INSERT, DELETE, UPDATE = "insert", "delete", "update"
UNCHANGED, CONFLICT = "unchanged", "conflict"
# An extra copy of a row whose key the corrected side held: the run publishes no count of the
# copies both sides hold, so nothing tells it written from not; not written yet.
EXTRA_COPY = "extra_copy"


class Unwritable(ValueError):
    """Why a writer cannot correct this relation; nothing was written."""


@dataclass(frozen=True)
class Decision(Generic[RowId]):
    # insert, delete, update, or: the relation holds the correction already; or it holds the
    # key otherwise than the run saw it (left alone).
    action: str
    # The rows to delete, or the one to update.
    rows: tuple[RowId, ...] = ()
    # Typed values to write by source column name: the changed columns, or a new row's.
    values: dict[str, Any] = field(default_factory=dict)
    copies: int = 0


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
    # Keys of extra copies not inserted (EXTRA_COPY).
    extra_copies: list[str] = field(default_factory=list)
    # Where a rewritten table's or directory's previous version is kept, where the corrected
    # one is, and the corrected one's fingerprint: what an undo checks and restores; or the
    # table beside a relation in another engine that keeps the rows the apply replaced.
    previous_location: str | None = None
    location: str | None = None
    fingerprint: str | None = None

    def add(self, decision: Decision[Any], key: str) -> None:
        if decision.action == INSERT:
            self.inserted += decision.copies
        elif decision.action == DELETE:
            self.deleted += decision.copies
        elif decision.action == UPDATE:
            self.updated += 1
        elif decision.action == UNCHANGED:
            self.unchanged += 1
        elif decision.action == EXTRA_COPY:
            self.extra_copies.append(key)
        else:
            self.conflicts.append(key)


def key_text_sql(side: SidePlan) -> str:
    """A Spark side's key as the corrections name it (the published key): its canonical text, or
    for a compound key the JSON array of its canonical texts; the inverse of
    CorrectedColumns.key_values."""
    keys = side.canonical_columns[: len(side.key_names)]
    return keys[0] if len(keys) == 1 else f"to_json(array({', '.join(keys)}))"


class CorrectedColumns:
    """The corrected side's columns as a correction names them (source names) and as its
    relation holds them."""

    def __init__(self, pair: PairPlan, corrected: SidePlan) -> None:
        keys = len(corrected.key_names)
        self.key_names = corrected.key_names
        self.key_profiles = corrected.column_profiles[:keys]
        self.sources = pair.source.column_names
        # The corrected side's name of each compared column.
        self.names = dict(zip(self.sources, corrected.column_names, strict=True))
        self.profiles = dict(zip(self.sources, corrected.column_profiles[keys:], strict=True))
        self.masking = pair.masking

    def key_values(self, key: str) -> list[Any]:
        texts = json.loads(key) if len(self.key_names) > 1 else [key]
        return [typed_value(p, t) for p, t in zip(self.key_profiles, texts, strict=True)]

    def holds(
        self, row: dict[str, str | None], image: dict[str, str | None], published: bool = True
    ) -> bool:
        """Whether a row's canonical values are an image's: one as published (a before-image),
        which holds hidden values as their hashes, or the values to write."""
        shown = self._shown if published else lambda _, text: text
        return all(shown(name, row.get(name)) == text for name, text in image.items())

    def _shown(self, name: str, text: str | None) -> str | None:
        return hashed(text) if text is not None and self.masking.hides(name) else text

    def typed(self, texts: dict[str, str | None]) -> dict[str, Any]:
        return {name: typed_value(self.profiles[name], text) for name, text in texts.items()}


def decide(
    columns: CorrectedColumns,
    correction: dict[str, Any],
    rows: list[tuple[RowId, dict[str, str | None]]],
) -> Decision[RowId]:
    """What ``correction`` does, given the ``rows`` (row id, canonical values) the relation holds
    of its key now."""
    new = json.loads(correction["new_values"]) if correction["new_values"] else {}
    copies = correction["copies"]
    if correction["operation"] == UPDATE:
        before = json.loads(correction["before_image"])
        held = [rid for rid, row in rows if columns.holds(row, before)]
        if len(held) == 1:
            return Decision(UPDATE, (held[0],), columns.typed(new), 1)
        if len(rows) == 1 and columns.holds(rows[0][1], new, published=False):
            return Decision(UNCHANGED)
        return Decision(CONFLICT)
    if correction["operation"] == DELETE:
        before = json.loads(correction["before_image"])
        held = [rid for rid, row in rows if columns.holds(row, before)]
        if len(held) >= copies:
            return Decision(DELETE, tuple(held[:copies]), copies=copies)
        return Decision(UNCHANGED if not rows else CONFLICT)
    if correction["key_held"]:
        return Decision(EXTRA_COPY)
    if not rows:
        return Decision(INSERT, values=columns.typed(new), copies=copies)
    if all(columns.holds(row, new, published=False) for _, row in rows):
        return Decision(UNCHANGED)
    return Decision(CONFLICT)
