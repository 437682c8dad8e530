"""An apply of the published run's corrections: the pairs asked for, each checked by the guards
and counted; a dry run (the default) writes nothing anywhere. Its records are what
parity_applies appends."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from parity.errors import ParityError
from parity.log import logger
from parity.plan import PairPlan, SidePlan, pairs_from_rows
from parity.results.spark_schema import row_of
from parity.sides.published_errors import published
from parity.sync.decisions import Unwritable, Written
from parity.sync.guards import Planned, changed_since, refusal
from parity.sync.hidden_values import right_rows, with_hidden_values
from parity.sync.record import (
    APPLIED,
    PLANNED,
    RECORD_SCHEMA,
    REFUSED,
    UNCHANGED,
    UNDONE,
    ApplyRecord,
)
from parity.sync.request import ApplyRequest, RequestError, read_request
from parity.sync.spark.kept_versions import KeptVersion, kept_versions
from parity.sync.spark.writer import spark_statements, write_spark_corrections
from parity.sync.sql.sessions import WRITE_SESSIONS
from parity.sync.sql.writer import statement_shapes, write_corrections
from parity.sync.undo import last_applies, undone

OPERATIONS = {"insert": "inserts", "delete": "deletes", "update": "updates"}


def apply_corrections(
    spark: SparkSession,
    request_text: str,
    dbt_target: str,
    plan: DataFrame,
    summary: DataFrame,
    results: DataFrame,
    corrections: DataFrame,
    history: DataFrame | None,
) -> DataFrame:
    request = read_request(request_text)
    pairs = {pair.name: pair for pair in pairs_from_rows([r.asDict() for r in plan.collect()])}
    for name in request.pairs:
        if name not in pairs:
            raise RequestError(
                f"no pair named '{name}' is declared (pairs: {', '.join(sorted(pairs))})"
            )
        if "sync" not in pairs[name].config:
            raise RequestError(f"pair '{name}' was planned by an earlier parity: build it again")
    asked = list(request.pairs)
    # Each pair's published result, with the fingerprints and checksums its run read.
    fingerprints = results.select(
        "run_id",
        "pair_name",
        "source_fingerprint",
        "target_fingerprint",
        "source_checksum",
        "target_checksum",
    )
    results_by_pair = {
        r["pair_name"]: r.asDict()
        for r in summary.where(F.col("pair_name").isin(asked))
        .join(fingerprints, ["run_id", "pair_name"], "left")
        .collect()
    }
    # The asked pairs' corrections of their published results, read from the view once.
    published = spark.createDataFrame(
        [(name, result["run_id"]) for name, result in results_by_pair.items()],
        "pair_name string, run_id string",
    )
    corrections = corrections.join(published, ["pair_name", "run_id"]).localCheckpoint()
    planned = _planned(corrections)
    applies = _applies_of(history, asked)
    applied = _applied_before(applies)
    last, kept = last_applies(applies), kept_versions(applies)
    apply_id, now = str(uuid.uuid4()), datetime.now(UTC)
    records = []
    for name in asked:
        pair, result = pairs[name], results_by_pair.get(name)
        counts = planned.get(name, Planned())
        conflicts, written, statements = None, Written(), None
        if request.undo:
            counts = Planned()
            outcome, reason = _undone(spark, pair, last.get(name), request.write)
        else:
            outcome, reason = _decided(spark, pair, result, counts, request, applied)
            if outcome in (PLANNED, APPLIED):
                listed = _corrections_of(corrections, result)
                statements = _statements(spark, pair, listed)
            if outcome == APPLIED:
                outcome, reason, written = _written(spark, apply_id, pair, listed, kept.get(name))
            if outcome == APPLIED:
                counts = Planned(written.inserted, written.deleted, written.updated)
                conflicts = len(written.conflicts)
        said = f" ({reason})" if reason else ""
        logger.info("parity pair '%s': apply %s: %s%s", name, outcome, _counted(counts), said)
        records.append(
            ApplyRecord(
                apply_id=apply_id,
                applied_at=now,
                dbt_target=dbt_target,
                pair_name=name,
                run_id=result["run_id"] if result else None,
                direction=pair.config["sync"]["direction"],
                corrected_relation=_corrected(pair).relation_name,
                mode="write" if request.write else "dry_run",
                forced=request.force,
                outcome=outcome,
                reason=reason,
                inserts=counts.inserts,
                deletes=counts.deletes,
                updates=counts.updates,
                conflicts=conflicts,
                config_hash=pair.config_hash,
                tolerance_hash=pair.tolerance_hash,
                statements=statements,
                previous_location=written.previous_location,
                location=written.location,
                fingerprint=written.fingerprint,
            )
        )
    return spark.createDataFrame([row_of(r) for r in records], RECORD_SCHEMA)


def _planned(corrections: DataFrame) -> dict[str, Planned]:
    """Each pair's corrections, by operation."""
    counted: dict[str, dict[str, int]] = {}
    rows = corrections.groupBy("pair_name", "operation").agg(F.sum("copies").alias("rows"))
    for row in rows.collect():
        counted.setdefault(row["pair_name"], {})[OPERATIONS[row["operation"]]] = row["rows"]
    return {name: Planned(**counts) for name, counts in counted.items()}


def _applies_of(history: DataFrame | None, asked: list[str]) -> list[dict[str, Any]]:
    """The asked pairs' applies that wrote or undid, oldest first: read from the history once."""
    if history is None:
        return []
    rows = history.where(
        F.col("pair_name").isin(asked) & F.col("outcome").isin(APPLIED, UNDONE)
    ).collect()
    return sorted((r.asDict() for r in rows), key=lambda r: r["applied_at"])


def _applied_before(applies: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """The applies that wrote a run's corrections, by (pair, run)."""
    return {
        (r["pair_name"], r["run_id"]): r["apply_id"] for r in applies if r["outcome"] == APPLIED
    }


def _corrected(pair: PairPlan):
    return pair.target if pair.config["sync"]["direction"] == "source_to_target" else pair.source


def _counted(counts: Planned) -> str:
    return (
        f"{counts.inserts} rows to insert, {counts.deletes} to delete, {counts.updates} to update"
    )


def _decided(
    spark: SparkSession,
    pair: PairPlan,
    result: dict[str, Any] | None,
    counts: Planned,
    request: ApplyRequest,
    applied: dict[tuple[str, str], str],
) -> tuple[str, str]:
    """What the apply does with the pair, and why."""
    reason = refusal(pair, result, counts, request.force)
    if reason:
        return REFUSED, reason
    run = result["run_id"] if result else None
    if (pair.name, run) in applied:
        return (
            UNCHANGED,
            f"run {run}'s corrections were applied by apply {applied[(pair.name, run)]}",
        )
    changed = changed_since(spark, pair, _corrected(pair), result) if result else ""
    if changed and not request.force:
        return REFUSED, changed
    if not request.write:
        return PLANNED, ""
    return APPLIED, ""


def _undone(
    spark: SparkSession, pair: PairPlan, last: dict[str, Any] | None, write: bool
) -> tuple[str, str]:
    corrected = _corrected(pair)
    try:
        _check_writable(pair, corrected)
    except Unwritable as refused:
        return REFUSED, str(refused)
    return undone(spark, pair, corrected, last, write)


def _corrections_of(corrections: DataFrame, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The published result's corrections, deletes first (a key's old copies go before its new
    ones come), then updates and inserts, each by key."""
    rows = corrections.where(F.col("pair_name") == result["pair_name"]).collect()
    order = {"delete": 0, "update": 1, "insert": 2}
    return sorted((r.asDict() for r in rows), key=lambda r: (order[r["operation"]], r["key"]))


def _statements(spark: SparkSession, pair: PairPlan, corrections: list[dict[str, Any]]) -> str:
    """How the apply changes the corrected relation, as its statements' shapes."""
    corrected = _corrected(pair)
    if corrected.in_session:
        return spark_statements(spark, corrected, len({c["key"] for c in corrections}))
    if corrected.dialect not in WRITE_SESSIONS:
        return ""
    return statement_shapes(pair, corrected, corrections)


def _written(
    spark: SparkSession,
    apply_id: str,
    pair: PairPlan,
    corrections: list[dict[str, Any]],
    kept: KeptVersion | None,
) -> tuple[str, str, Written]:
    """The pair's corrections written, or why they cannot be: the outcome, its reason, and what
    was written. A Spark side's swap deletes the version ``kept`` for the undo of the apply
    before."""
    corrected = _corrected(pair)
    try:
        _check_writable(pair, corrected)
        corrections, unreadable, right = _with_right_rows(spark, pair, corrections)
        if corrected.in_session:
            written = write_spark_corrections(
                spark, pair, corrected, corrections, apply_id, right, kept
            )
        else:
            written = write_corrections(pair, corrected, corrections, apply_id, right)
    except Unwritable as refused:
        return REFUSED, str(refused), Written()
    except ParityError:
        raise
    except Exception as error:  # Spark's or a driver's: its text may quote a value written
        reason = published(str(error))
        raise ParityError(
            pair.name,
            f"the apply to {corrected.relation_name} failed: {type(error).__name__}: {reason}",
        ) from None
    written.conflicts.extend(unreadable)
    reason = ""
    if written.conflicts:
        keys = ", ".join(written.conflicts[:10])
        reason = f"{len(written.conflicts)} rows changed since the run were left alone"
        reason += f" (keys {keys})"
    return APPLIED, reason, written


def _check_writable(pair: PairPlan, corrected: SidePlan) -> None:
    """Raises why the pair's corrections cannot be written."""
    if not corrected.in_session and corrected.dialect not in WRITE_SESSIONS:
        raise Unwritable(
            f"writing to {corrected.dialect} relations is not supported yet: a dry run lists what"
            " an apply would change"
        )
    if not corrected.in_session and not pair.config["sync"]["apply_connection_env"]:
        raise Unwritable(
            "its sync.apply_connection_env names no variable: an apply writes through a"
            " connection of its own"
        )


def _with_right_rows(
    spark: SparkSession, pair: PairPlan, corrections: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[str], dict[str, list[dict[str, str | None]]]]:
    """What the apply reads from the right side by key: the values the pair never publishes,
    and every row of each key held more than once (decided over all its rows). The corrections
    with those values, the keys whose row the right side no longer holds as the run saw it, and
    the rows of the keys held more than once."""
    hidden = {c["key"] for c in corrections if c["values_at_apply"] and not c["whole_key"]}
    whole = {c["key"] for c in corrections if c["whole_key"]}
    if not hidden and not whole:
        return corrections, [], {}
    right = pair.source if _corrected(pair) is pair.target else pair.target
    rows = right_rows(spark, pair, right, sorted(hidden | whole))
    readable, unreadable = [], []
    for correction in corrections:
        if correction["key"] not in hidden or not correction["values_at_apply"]:
            readable.append(correction)
            continue
        completed = with_hidden_values(correction, rows.get(correction["key"], []))
        if completed is None:
            unreadable.append(correction["key"])
        else:
            readable.append(completed)
    return readable, unreadable, {key: rows.get(key, []) for key in whole}
