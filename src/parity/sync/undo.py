"""Undoing a pair's last apply: the version of the corrected relation it replaced, back, if
nothing changed the relation since. A rewritten Spark table is pointed back at its previous
version (one catalog operation, as the apply was); a rewritten directory is swapped back by
renames (spark/path_swap.py); a relation in another engine gets back the rows the apply replaced
(sql/undo.py)."""

from __future__ import annotations

from typing import Any

from pyspark.sql import SparkSession

from parity.pipelines.incremental import fingerprint_text
from parity.plan import PairPlan, SidePlan
from parity.sides.fingerprints import input_fingerprint
from parity.sync.record import APPLIED, PLANNED, REFUSED, UNDONE
from parity.sync.spark.path_swap import directory_of, restore_directory
from parity.sync.sql.undo import undone_in_place
from parity.values.spark_literals import string_literal


def last_applies(applies: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each pair's last apply that changed its corrected relation or undid, by pair, of its
    ``applies`` that wrote or undid, oldest first."""
    last: dict[str, dict[str, Any]] = {}
    for row in applies:
        written = any(row[count] for count in ("inserts", "deletes", "updates"))
        if row["outcome"] == UNDONE or (row["outcome"] == APPLIED and written):
            last[row["pair_name"]] = row
    return last


def undone(
    spark: SparkSession,
    pair: PairPlan,
    corrected: SidePlan,
    last: dict[str, Any] | None,
    write: bool,
) -> tuple[str, str]:
    """The outcome of undoing ``last`` (the pair's last apply), and why."""
    if last is None:
        return REFUSED, "no apply of it wrote anything to undo"
    if last["outcome"] == UNDONE:
        return REFUSED, f"its last apply was undone by apply {last['apply_id']}: nothing to undo"
    if not corrected.in_session:
        return undone_in_place(pair, corrected, last, write)
    if not last["previous_location"]:
        return (
            REFUSED,
            f"apply {last['apply_id']} kept no previous version of {corrected.relation_name}:"
            f" undoing a {corrected.dialect} relation written by MERGE is not supported yet",
        )
    restore = restore_directory if directory_of(corrected) is not None else _restore_table
    refused = restore(spark, corrected, last, write)
    if refused:
        return REFUSED, refused
    if not write:
        return PLANNED, f"would restore the version apply {last['apply_id']} replaced"
    return UNDONE, f"restored the version apply {last['apply_id']} replaced"


def _restore_table(
    spark: SparkSession, corrected: SidePlan, last: dict[str, Any], write: bool
) -> str:
    """Why the table cannot be pointed back at the version ``last`` replaced, or "" when it is
    (or would be, for a dry run)."""
    table = corrected.relation_name
    described = {r[0]: r[1] for r in spark.sql(f"describe table extended {table}").collect()}
    now = fingerprint_text(input_fingerprint(spark, corrected))
    if described.get("Location") != last["location"] or now != last["fingerprint"]:
        return f"{table} changed since apply {last['apply_id']}: it was left as it is"
    if write:
        spark.sql(f"alter table {table} set location {string_literal(last['previous_location'])}")
        spark.sql(f"refresh table {table}")
    return ""
