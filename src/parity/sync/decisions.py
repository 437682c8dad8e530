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
# The actions that change the relation.
CHANGES = (INSERT, DELETE, UPDATE)


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

    def key_texts(self, key: str) -> tuple[str, ...]:
        """A published key's canonical texts, one per key column."""
        return tuple(json.loads(key)) if len(self.key_names) > 1 else (key,)

    def key_values(self, key: str) -> list[Any]:
        texts = self.key_texts(key)
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
        # The right side lacks the key (else it is a whole key): these copies were all of it.
        if len(held) == len(rows) == copies:
            return Decision(DELETE, tuple(held), copies=copies)
        return Decision(UNCHANGED if not rows else CONFLICT)
    if not rows:
        return Decision(INSERT, values=columns.typed(new), copies=copies)
    if len(rows) == copies and all(columns.holds(row, new, published=False) for _, row in rows):
        return Decision(UNCHANGED)
    return Decision(CONFLICT)


def decide_key(
    columns: CorrectedColumns,
    corrections: list[dict[str, Any]],
    rows: list[tuple[RowId, dict[str, str | None]]],
    right: list[dict[str, str | None]],
) -> list[Decision[RowId]]:
    """What the ``corrections`` of a key held more than once (``whole_key``) do together, given
    the ``rows`` the corrected relation holds of it now and the ``right`` side's rows of it now:
    delete the rows only the corrected side holds and insert, whole, those only the right side
    holds, where they are the rows the corrections name (as multisets); nothing where both
    sides hold the same rows; else the key is left alone. Copies counted, not guessed: a second
    apply finds nothing to do, and a row a writer added or changed since is a conflict."""
    extra, missing = list(rows), list(right)
    for row in right:
        twin = next((i for i, (_, held) in enumerate(extra) if held == row), None)
        if twin is not None:
            extra.pop(twin)
            missing.remove(row)
    if not extra and not missing:
        return [Decision(UNCHANGED)]
    if not _named(columns, corrections, [row for _, row in extra], [*missing]):
        return [Decision(CONFLICT)]
    decisions: list[Decision[RowId]] = []
    if extra:
        decisions.append(Decision(DELETE, tuple(rid for rid, _ in extra), copies=len(extra)))
    for row in {json.dumps(row, sort_keys=True): row for row in missing}.values():
        decisions.append(Decision(INSERT, values=columns.typed(row), copies=missing.count(row)))
    return decisions


def _named(
    columns: CorrectedColumns,
    corrections: list[dict[str, Any]],
    extra: list[dict[str, str | None]],
    missing: list[dict[str, str | None]],
) -> bool:
    """Whether the rows to delete (``extra``) and to insert (``missing``) are, copy for copy,
    the corrections': a delete's row, an insert's, and for an update one row on each side that
    holds its before-image and its new values."""
    wanted: list[tuple[list[dict[str, str | None]], dict[str, str | None], bool]] = []
    pairs = []
    for correction in corrections:
        operation = correction["operation"]
        if operation == UPDATE:
            if correction["before_image"] is None:  # several pairs of rows: which is unknown
                return False
            pairs += [
                (extra, json.loads(correction["before_image"]), True),
                (missing, json.loads(correction["new_values"]), False),
            ]
        else:
            image = correction["before_image" if operation == DELETE else "new_values"]
            found = extra if operation == DELETE else missing
            held = json.loads(image) if image else {}
            wanted += [(found, held, operation == DELETE)] * correction["copies"]
    # Whole rows first: an update's images name a few columns, and could match one of them.
    wanted += pairs
    left = {id(found): list(found) for found in (extra, missing)}
    for found, image, published in wanted:
        rows = left[id(found)]
        holding = (i for i, row in enumerate(rows) if columns.holds(row, image, published))
        match = next(holding, None)
        if match is None:
            return False
        rows.pop(match)
    return not any(left.values())
