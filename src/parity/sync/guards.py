"""Why an apply must not correct a pair from its published run: each reason names what the user
can do about it. Checked in order, the first that holds is the pair's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import SparkSession

from parity.pipelines.incremental import checksum_text, fingerprint_text
from parity.plan import PairPlan, SidePlan
from parity.sides.backoff import Backoff
from parity.sides.fingerprints import input_fingerprint
from parity.sides.sql import SqlSide

# The sides whose relation an apply can fingerprint afresh without reading a row: a Spark
# table's files, a DuckDB database file. Any other (PostgreSQL, whose fingerprint is refused
# while other sessions are active, which is when it would matter; MySQL, which has none) is read
# once, its rows' checksum against the one its run computed.
FINGERPRINTED = ("spark", "duckdb")
CHECKSUMMED = ("postgres", "mysql")


@dataclass(frozen=True)
class Planned:
    """What a pair's corrections would change, rows counted with their copies."""

    inserts: int = 0
    deletes: int = 0
    updates: int = 0

    @property
    def rows(self) -> int:
        return self.inserts + self.deletes + self.updates


def refusal(pair: PairPlan, published: dict[str, Any] | None, planned: Planned, force: bool) -> str:
    """Why the pair's corrections must not be applied, or "" when they may."""
    if published is None:
        return "no published run has a result for it: build the project first"
    run = published["run_id"]
    if published["status"] != "complete":
        return (
            f"its published result (run {run}) is {published['status']}, not complete:"
            f" {published['status_reason']}"
        )
    if published["halted"]:
        return (
            f"its published comparison (run {run}) was halted: it lists only the differences"
            " found before it stopped"
        )
    if not published["data_compared"]:
        return f"its schema contract failed in run {run}: no row was compared"
    if pair.config_hash != published["config_hash"]:
        return (
            f"its configuration changed since run {run}, whose corrections these are: build"
            " again to correct what the new configuration finds"
        )
    if any(pair.masking.hides(name) for name in pair.source.key_names):
        return (
            "its key is sensitive: its corrections name rows by hashed keys, which no engine holds"
        )
    limit = max_corrections(pair, published)
    if planned.rows > limit and not force:
        return (
            f"{planned.rows} rows to correct, more than its max_corrections"
            f" ({pair.config['sync']['max_corrections']}: {limit:g} rows): set force to apply them"
        )
    return ""


def max_corrections(pair: PairPlan, published: dict[str, Any]) -> float:
    """The most rows the pair's sync options let an apply correct without force."""
    limit = pair.config["sync"]["max_corrections"]
    if isinstance(limit, str):
        corrected = "target" if pair.config["sync"]["direction"] == "source_to_target" else "source"
        return float(limit.rstrip("%")) / 100 * (published[f"{corrected}_rows"] or 0)
    return float(limit)


def changed_since(
    spark: SparkSession, pair: PairPlan, corrected: SidePlan, result: dict[str, Any]
) -> str:
    """Why the corrected relation must not be corrected from the run: it changed since."""
    side = corrected.side
    if corrected.dialect in FINGERPRINTED:
        then, how = result.get(f"{side}_fingerprint") or "", ""
        now = fingerprint_text(input_fingerprint(spark, corrected)) if then else ""
    elif corrected.dialect in CHECKSUMMED:
        then, how = result.get(f"{side}_checksum") or "", " (its rows' checksum)"
        now = _checksum_now(spark, pair, corrected) if then else ""
    else:
        return ""
    if then and now and then != now:
        return (
            f"its {side} relation {corrected.relation_name} changed since run"
            f" {result['run_id']}{how}: build again to correct it as it is now, or set force to"
            " apply"
        )
    return ""


def _checksum_now(spark: SparkSession, pair: PairPlan, corrected: SidePlan) -> str:
    """The side's first pass now, as the run's result keeps it: one read through its own
    read-only session."""
    backoff = Backoff(pair.retries, pair.retry_seconds)
    with SqlSide(spark, pair.name, corrected, backoff) as side:
        return checksum_text(side.profile())
