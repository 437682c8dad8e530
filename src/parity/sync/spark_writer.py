"""Corrections written to a table in Spark's catalog, atomically for its readers: the corrected
version is written beside the current one and the table is pointed at it in one catalog
operation (`alter table ... set location`); the previous version stays where it was. The rows
of the corrected keys are read back as the comparison read them (the plan's canonical SQL) and
changed only where they still hold what the run saw. Spark has no lock: the table's files are
fingerprinted before it is read and again before the swap, and a table changed in between is
left as it was."""

from __future__ import annotations

from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from parity.pipelines.incremental import fingerprint_text
from parity.plan import PairPlan, SidePlan
from parity.sides.fingerprints import InputFingerprint, input_fingerprint
from parity.sync.decisions import (
    DELETE,
    INSERT,
    UPDATE,
    CorrectedColumns,
    Decision,
    Unwritable,
    Written,
    decide,
    key_text_sql,
)
from parity.values.spark_literals import string_literal

# Formats whose table Spark rewrites as files under a location.
FILE_FORMATS = ("parquet", "orc")
KEY = "__parity_key"


def write_spark_corrections(
    spark: SparkSession,
    pair: PairPlan,
    corrected: SidePlan,
    corrections: list[dict[str, Any]],
    apply_id: str,
) -> Written:
    table = corrected.relation_name
    location, provider = _rewritable(spark, table, corrected)
    before = input_fingerprint(spark, corrected)
    columns = CorrectedColumns(pair, corrected)
    current = spark.table(table)
    names = current.columns
    keys = len(corrected.key_names)
    canonical = corrected.canonical_columns
    key_sql = key_text_sql(corrected)
    annotated = current.selectExpr(
        "*",
        f"{key_sql} as {KEY}",
        *(f"{sql} as __parity_{i}" for i, sql in enumerate(canonical[keys:])),
    )
    wanted = F.broadcast(
        spark.createDataFrame([(c["key"],) for c in corrections], f"{KEY} string").distinct()
    )
    held: dict[str, list[dict[str, Any]]] = {}
    for row in annotated.join(wanted, KEY).collect():
        held.setdefault(row[KEY], []).append(row.asDict())
    written = Written()
    for correction in corrections:
        rows = held.setdefault(correction["key"], [])
        # The rows the table held (not those this apply deleted or inserted), as read.
        found = [
            (i, {name: row[f"__parity_{n}"] for n, name in enumerate(columns.sources)})
            for i, row in enumerate(rows)
            if KEY in row
        ]
        decision = decide(columns, correction, found)
        _carry_out(decision, rows, columns, corrected, correction["key"])
        written.add(decision, correction["key"])
    if not (written.inserted or written.deleted or written.updated):
        return written
    kept = annotated.join(wanted, KEY, "left_anti").select(*names)
    changed = [
        tuple(row.get(name) for name in names) for rows in held.values() for row in rows if row
    ]
    rewritten = kept.unionByName(spark.createDataFrame(changed, current.schema))
    written.previous_location = location
    written.location = f"{location.rstrip('/')}.parity-{apply_id}"
    _swap(spark, table, written.location, provider, rewritten, before, corrected)
    written.fingerprint = fingerprint_text(input_fingerprint(spark, corrected))
    return written


def _rewritable(spark: SparkSession, table: str, corrected: SidePlan) -> tuple[str, str]:
    """The table's location and file format, or why the apply cannot rewrite it."""
    if not corrected.in_session or corrected.file_view is not None:
        raise Unwritable(
            f"{table} is files Spark reads, not a table: only tables are rewritten yet"
        )
    described = {r[0]: r[1] for r in spark.sql(f"describe table extended {table}").collect()}
    if described.get("Type") == "VIEW":
        raise Unwritable(f"{table} is a view: correct the table it reads")
    provider = (described.get("Provider") or "").lower()
    if provider not in FILE_FORMATS:
        raise Unwritable(
            f"{table} is a {provider or 'Hive'} table: only {', '.join(FILE_FORMATS)} tables are"
            " rewritten yet"
        )
    if any(
        r[0] == "# Partition Information" for r in spark.sql(f"describe table {table}").collect()
    ):
        raise Unwritable(f"{table} is partitioned: only unpartitioned tables are rewritten yet")
    nested = [p for p in corrected.column_profiles if p["kind"] == "nested"]
    if nested:
        raise Unwritable(f"{table} has nested columns, which the apply does not write yet")
    return described["Location"], provider


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
        raise Unwritable(f"{table} changed while the apply read it: it was left as it was")
    spark.sql(f"alter table {table} set location {string_literal(location)}")
    spark.sql(f"refresh table {table}")
