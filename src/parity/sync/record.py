"""What each apply leaves in parity_applies, one row per pair it was asked to correct: what it
would or did change, or why it refused."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from parity.results.spark_schema import schema_of

# What an apply did with a pair.
PLANNED = "planned"  # a dry run: counted, nothing written
APPLIED = "applied"
UNCHANGED = "unchanged"  # that run's corrections were applied before: nothing to do
REFUSED = "refused"
UNDONE = "undone"  # the version an apply replaced is back


@dataclass(frozen=True)
class ApplyRecord:
    apply_id: str
    applied_at: datetime
    # The dbt target the apply ran with.
    dbt_target: str
    pair_name: str
    # The run whose corrections were applied (for a kept result, the run that computed it).
    run_id: str | None
    direction: str
    corrected_relation: str | None
    # `dry_run` or `write`.
    mode: str
    forced: bool
    outcome: str
    reason: str
    # Rows, copies counted, inserted, deleted and updated by an apply that wrote; to insert,
    # delete and update for a dry run or a refusal.
    inserts: int
    deletes: int
    updates: int
    # Corrections whose row the corrected side no longer held as the run saw it; NULL where the
    # apply did not read the corrected side.
    conflicts: int | None
    config_hash: str
    tolerance_hash: str
    # The statements an apply changes the corrected relation with (of one that would, or did),
    # each after how many rows it is run for; parameters as marks, never values.
    statements: str | None = None
    # Where what the apply replaced is kept for an undo: a rewritten Spark table's or Parquet
    # directory's previous version (with where the written one is, and its fingerprint), or
    # the table beside a relation in another engine that keeps the rows it changed
    # (sql/kept_rows.py); NULL where it changed nothing.
    previous_location: str | None = None
    location: str | None = None
    fingerprint: str | None = None


RECORD_SCHEMA = schema_of(ApplyRecord)
