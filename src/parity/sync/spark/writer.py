"""Corrections written to a Spark side, as one change its readers see whole. The rows of the
corrected keys are read back as the comparison read them (the plan's canonical SQL) and changed
only where they still hold what the run saw (decisions.py). Then, by what the side is:
- a Parquet or ORC table of the catalog: the corrected version is written beside the current
  one and the table pointed at it in one catalog operation (`alter table ... set location`);
- a directory of Parquet files: the corrected version is written beside it and swapped in by
  renames (path_swap.py);
- a Delta or Iceberg table: the corrected keys' rows replaced by one MERGE, the table format's
  own transaction (merge.py).
Spark has no lock: a rewritten side's files are fingerprinted before it is read and again before
the swap, and a side changed in between is left as it was. A swap keeps the version it replaced,
for undo, until the next apply that writes the relation deletes it (kept_versions.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from parity.log import logger
from parity.pipelines.incremental import fingerprint_text
from parity.plan import PairPlan, SidePlan
from parity.sides.file_views import spark_reason
from parity.sides.fingerprints import InputFingerprint, input_fingerprint
from parity.sync.decisions import (
    CHANGES,
    DELETE,
    INSERT,
    UPDATE,
    CorrectedColumns,
    Decision,
    Unwritable,
    Written,
    decide,
    decide_key,
    key_text_sql,
)
from parity.sync.spark import hadoop_files
from parity.sync.spark.kept_versions import KeptVersion, discard
from parity.sync.spark.merge import MERGED_FORMATS, key_state_sql, merge
from parity.sync.spark.path_swap import directory_of, swap_directory, writable_directory
from parity.sync.spark.version_names import base_of, previous_name, written_name
from parity.values.spark_literals import string_literal

# Formats whose table Spark rewrites as files under a location.
FILE_FORMATS = ("parquet", "orc")
KEY, STATE = "__parity_key", "__parity_state"


@dataclass(frozen=True)
class SparkTarget:
    # "table" (rewritten and pointed at), "directory" (rewritten and renamed) or "merged".
    kind: str
    # A table's location or a directory's path; "" for a merged table.
    location: str
    provider: str = "parquet"
    # A table whose files the catalog owns: dropping it deletes them, creating it again wants
    # its default location empty.
    managed: bool = False


def write_spark_corrections(
    spark: SparkSession,
    pair: PairPlan,
    corrected: SidePlan,
    corrections: list[dict[str, Any]],
    apply_id: str,
    right: dict[str, list[dict[str, str | None]]],
    kept: KeptVersion | None = None,
) -> Written:
    """``right``: the right side's rows of each key held more than once (``whole_key``)."""
    table = corrected.relation_name
    target = _target(spark, corrected)
    before = input_fingerprint(spark, corrected)
    columns = CorrectedColumns(pair, corrected)
    current = spark.sql(f"select * from {table}")
    names = current.columns
    keys = len(corrected.key_names)
    canonical = corrected.canonical_columns
    key_sql = key_text_sql(corrected)
    # A merged table's keys are replaced only where they still hold the rows read, which their
    # state, read with the rows, says.
    state = [f"{key_state_sql(corrected, f'over (partition by {key_sql})')} as {STATE}"]
    annotated = current.selectExpr(
        "*",
        f"{key_sql} as {KEY}",
        *(f"{sql} as __parity_{i}" for i, sql in enumerate(canonical[keys:])),
        *(state if target.kind == "merged" else []),
    )
    wanted = F.broadcast(
        spark.createDataFrame([(c["key"],) for c in corrections], f"{KEY} string").distinct()
    )
    held: dict[str, list[dict[str, Any]]] = {}
    for row in annotated.join(wanted, KEY).collect():
        held.setdefault(row[KEY], []).append(row.asDict())
    states = {key: rows[0].get(STATE) for key, rows in held.items()}
    written, touched = Written(), set()
    whole: dict[str, list[dict[str, Any]]] = {}
    for correction in corrections:
        key = correction["key"]
        if correction["whole_key"]:
            whole.setdefault(key, []).append(correction)
            continue
        rows = held.setdefault(key, [])
        decisions = [decide(columns, correction, _as_read(rows, columns))]
        _carried_out(decisions, rows, columns, corrected, key, written, touched)
    for key, together in whole.items():
        rows = held.setdefault(key, [])
        decisions = decide_key(columns, together, _as_read(rows, columns), right.get(key, []))
        _carried_out(decisions, rows, columns, corrected, key, written, touched)
    if not touched:
        return written
    if target.kind == "merged":
        rows_of = {key: [r for r in held[key] if r] for key in touched}
        merge(spark, table, corrected, current.schema, states, rows_of)
        return written
    kept_rows = annotated.join(wanted, KEY, "left_anti").select(*names)
    changed = [
        tuple(row.get(name) for name in names) for rows in held.values() for row in rows if row
    ]
    rewritten = kept_rows.unionByName(spark.createDataFrame(changed, current.schema))
    if target.kind == "directory":
        written.previous_location, written.fingerprint = swap_directory(
            spark, corrected, target.location, rewritten, before, apply_id
        )
        written.location = target.location
    else:
        written.location = written_name(target.location, apply_id)
        _swap(spark, table, written.location, target.provider, rewritten, before, corrected)
        written.fingerprint = fingerprint_text(input_fingerprint(spark, corrected))
        written.previous_location = _kept_aside(spark, target, apply_id)
    discard(spark, corrected, kept, written)
    return written


def spark_statements(spark: SparkSession, corrected: SidePlan, keys: int) -> str:
    """How an apply changes the side, for its record: what it writes, and the one operation
    that makes it what readers see."""
    table = corrected.relation_name
    try:
        target = _target(spark, corrected)
    except Unwritable as refused:
        return f"none: {refused}"
    if target.kind == "merged":
        return (
            f"merge into {table} from the rows of {keys} keys staged in a temporary view,"
            " where each key still holds the rows read"
        )
    written = f"the rows of {keys} keys changed in a copy of {table} written beside it, then: "
    if target.kind == "directory":
        return written + "renamed into its place"
    return written + f"alter table {table} set location <the copy>"


def _target(spark: SparkSession, corrected: SidePlan) -> SparkTarget:
    """What the side is, as the apply writes it, or why the apply cannot write it."""
    table = corrected.relation_name
    nested = [p for p in corrected.column_profiles if p["kind"] == "nested"]
    if nested:
        raise Unwritable(f"{table} has nested columns, which the apply does not write yet")
    if directory_of(corrected) is not None:
        return SparkTarget("directory", writable_directory(corrected))
    if corrected.file_view is not None:
        raise Unwritable(f"{table} is files Spark reads through a view: it is not rewritten")
    described = {r[0]: r[1] for r in spark.sql(f"describe table extended {table}").collect()}
    if described.get("Type") == "VIEW":
        raise Unwritable(f"{table} is a view: correct the table it reads")
    provider = (described.get("Provider") or "").lower()
    if provider in MERGED_FORMATS:
        return SparkTarget("merged", "", provider)
    if provider not in FILE_FORMATS:
        raise Unwritable(
            f"{table} is a {provider or 'Hive'} table: only"
            f" {', '.join(FILE_FORMATS + MERGED_FORMATS)} tables are written"
        )
    if any(
        r[0] == "# Partition Information" for r in spark.sql(f"describe table {table}").collect()
    ):
        raise Unwritable(f"{table} is partitioned: only unpartitioned tables are rewritten yet")
    return SparkTarget("table", described["Location"], provider, described.get("Type") == "MANAGED")


def _as_read(
    rows: list[dict[str, Any]], columns: CorrectedColumns
) -> list[tuple[int, dict[str, str | None]]]:
    """The key's rows the table held (not those this apply deleted or inserted), as read."""
    return [
        (i, {name: row[f"__parity_{n}"] for n, name in enumerate(columns.sources)})
        for i, row in enumerate(rows)
        if KEY in row
    ]


def _carried_out(
    decisions: list[Decision[int]],
    rows: list[dict[str, Any]],
    columns: CorrectedColumns,
    corrected: SidePlan,
    key: str,
    written: Written,
    touched: set[str],
) -> None:
    for decision in decisions:
        _carry_out(decision, rows, columns, corrected, key)
        written.add(decision, key)
        if decision.action in CHANGES:
            touched.add(key)


def _carry_out(
    decision: Decision[int],
    rows: list[dict[str, Any]],
    columns: CorrectedColumns,
    corrected: SidePlan,
    key: str,
) -> None:
    """The decision, made on the key's rows as the rewritten table will hold them (a deleted row
    is emptied, not removed, so the row ids of later corrections of the key stay)."""
    values = {columns.names[name]: value for name, value in decision.values.items()}
    if decision.action == UPDATE:
        rows[decision.rows[0]].update(values)
    elif decision.action == DELETE:
        for index in decision.rows:
            rows[index].clear()
    elif decision.action == INSERT:
        typed_key = dict(zip(corrected.key_names, columns.key_values(key), strict=True))
        rows.extend({**typed_key, **values} for _ in range(decision.copies))


def _kept_aside(spark: SparkSession, target: SparkTarget, apply_id: str) -> str:
    """Where the version a table no longer reads is kept. A managed table's default location is
    renamed aside, else the next `create table` of that name (a dbt run of its model) finds it
    taken (LOCATION_ALREADY_EXISTS)."""
    location = target.location.rstrip("/")
    if not target.managed or base_of(location) != location:
        return target.location
    aside = previous_name(location, apply_id)
    try:
        hadoop_files.rename(spark, location, aside)
    except Exception as error:  # the table is corrected already: its old version stays put
        logger.warning("parity: %s stays where it was: %s", location, spark_reason(error))
        return target.location
    return aside


def _swap(
    spark: SparkSession,
    table: str,
    location: str,
    provider: str,
    rewritten: DataFrame,
    before: InputFingerprint,
    corrected: SidePlan,
) -> None:
    rewritten.write.format(provider).save(location)
    if input_fingerprint(spark, corrected) != before:
        hadoop_files.delete(spark, location)
        raise Unwritable(f"{table} changed while the apply read it: it was left as it was")
    spark.sql(f"alter table {table} set location {string_literal(location)}")
    spark.sql(f"refresh table {table}")
