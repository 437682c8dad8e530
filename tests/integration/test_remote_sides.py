"""A pair side in PostgreSQL, served on 127.0.0.1 by the tests, or in DuckDB: checksums run inside
that engine, with the same findings as inside Spark, and only the rows of small differing
segments leave it. The tests every engine shares run on each (`engine`); each engine's own
follow."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

import duckdb
import psycopg
import pytest

from parity.plan import pairs_from_rows
from parity.reference import row_hash
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import DUCKDB_ENV, POSTGRES_ENV, reconcile, remote_pair
from tests.integration.run_results import by_pair, finding, pair_error


@dataclass(frozen=True)
class Engine:
    """An engine holding a copy of the legacy orders: its dialect, the source that declares the
    copy (remote_tables.SOURCES) and the variable its connection is read from."""

    dialect: str
    source: str
    env: str

    def query(self, sql: str) -> tuple[list[str], list[tuple]]:
        """The column names and rows of ``sql``, run by the engine itself."""
        if self.dialect == "postgres":
            with psycopg.connect(os.environ[self.env]) as connection:
                cursor = connection.execute(sql)
                return [d.name for d in cursor.description], cursor.fetchall()
        with duckdb.connect(os.environ[self.env], read_only=True) as connection:
            cursor = connection.execute(sql)
            return [d[0] for d in cursor.description], cursor.fetchall()


POSTGRES = Engine("postgres", "legacy_pg", POSTGRES_ENV)
DUCKDB = Engine("duckdb", "legacy_duckdb", DUCKDB_ENV)
ENGINES = [POSTGRES, DUCKDB]


@pytest.fixture(params=ENGINES, ids=[e.dialect for e in ENGINES])
def engine(request) -> Engine:
    return request.param


def pair(engine: Engine, name: str, target: str, **options) -> dict:
    """The engine's copy of the legacy orders against a model of the project."""
    return remote_pair(name, engine.source, {"ref": target}, **options)


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


# Every engine.


def test_equal_copy_matches_by_checksum_alone(scratch, spark, remote_legacy, engine):
    assert reconcile(scratch, [pair(engine, "copy", "legacy_orders")]).success
    summaries, _ = by_pair(spark, scratch.schema)
    found = summaries["copy"]
    assert found["passed"] and found["algorithm"] == "hashdiff"
    assert (found["source_rows"], found["checksum_passes"], found["rows_moved"]) == (3000, 1, 0)
    assert (found["source_rows_moved"], found["target_rows_moved"]) == (0, 0)


def test_planted_differences_found_across_engines(scratch, spark, remote_legacy, engine):
    migrated = pair(
        engine, "migrated", "lakehouse_orders", bisection_threshold=64, enforce_key="warn"
    )
    assert reconcile(scratch, [migrated]).success
    summaries, differences = by_pair(spark, scratch.schema, finding, set)
    found = differences["migrated"]
    assert ("42", "value_mismatch", "amount") in found
    assert ("1000001", "missing_in_source", None) in found
    assert ("2718", "value_mismatch", "ordered_at") in found
    assert ("770", "value_mismatch", "note") in found
    assert ("2000", "duplicate_in_target", None) in found
    assert ("99", "value_mismatch", "discount") in found
    assert len(found) == 13
    # Only the rows of differing cells of at most 64 rows left the engines: one cell at most per
    # differing key.
    moved = summaries["migrated"]
    differing_keys = len({key for key, _, _ in found})
    assert 0 < moved["source_rows_moved"] <= differing_keys * 64
    assert 0 < moved["target_rows_moved"] <= differing_keys * 64
    assert moved["rows_moved"] == moved["source_rows_moved"] + moved["target_rows_moved"]


def test_engine_sql_hashes_as_the_reference_does(scratch, spark, remote_legacy, engine):
    assert reconcile(scratch, [pair(engine, "copy", "legacy_orders")]).success
    (plan,) = pairs_from_rows(
        [r.asDict() for r in spark.table(f"{scratch.schema}.parity_plan").collect()]
    )
    assert plan.source.dialect == engine.dialect and os.environ[engine.env] not in str(plan)
    names, rows = engine.query(plan.source.canonical_sql)
    values = [i for i, n in enumerate(names) if n.startswith(("__parity_k", "__parity_c"))]
    for row in rows:
        assert row[names.index("__parity_hash")] == row_hash([row[i] for i in values])


def test_sensitive_columns_of_an_engine_side_publish_only_hashes(
    scratch, spark, remote_legacy, engine
):
    masked = pair(
        engine, "masked", "lakehouse_orders", enforce_key="warn", sensitive_columns=["amount"]
    )
    assert reconcile(scratch, [masked]).success
    rows = spark.table(f"{scratch.schema}.parity_differences").where("pair_name = 'masked'")
    found = {(r["key"], r["column_name"]): r.asDict() for r in rows.collect()}
    amount = found[("42", "amount")]
    shown = ("source_value", "target_value", "delta", "source_canonical", "target_canonical")
    assert [amount[name] for name in shown] == [None] * 5
    assert (amount["source_hash"], amount["target_hash"]) == (sha("3986.18"), sha("3986.19"))
    # A missing row's whole-row JSON hashes the sensitive column and shows the others.
    lost = json.loads(found[("17", None)]["source_value"])
    assert lost["amount"].startswith("sha256:") and lost["status"] == "shipped"
    assert found[("64", "customer_id")]["source_value"] == "1817"


# PostgreSQL.


def test_both_sides_outside_spark(scratch, spark, remote_legacy):
    everything = remote_pair("pg_duckdb", POSTGRES.source, {"source": [DUCKDB.source, "orders"]})
    assert reconcile(scratch, [everything]).success
    summaries, _ = by_pair(spark, scratch.schema)
    found = summaries["pg_duckdb"]
    assert found["passed"] and (found["checksum_passes"], found["rows_moved"]) == (1, 0)
    assert (found["source_rows_moved"], found["target_rows_moved"]) == (0, 0)


def test_unreachable_server_names_pair_and_variable_not_the_url(
    scratch, spark, remote_legacy, monkeypatch
):
    closed = "postgresql://parity:secret-password@127.0.0.1:1/postgres"
    monkeypatch.setenv(POSTGRES_ENV, closed)
    result = reconcile(scratch, [pair(POSTGRES, "copy", "legacy_orders")])
    assert result.success, error_text(result)
    message = pair_error(spark, scratch.schema, "copy")
    assert (
        "parity pair 'copy': source relation public.orders: cannot connect to postgres"
        f" through {POSTGRES_ENV}" in message
    )
    assert "secret-password" not in message


# DuckDB.


def test_duckdb_holds_spark_timestamps_as_naive_ones(remote_legacy):
    """The copy that matches Spark's by checksum alone (above) holds DuckDB's own types: DuckDB
    reads Spark's Parquet timestamps as naive UTC values, so the pair has a zoned timestamp on
    one side and a naive one on the other, equal because the naive one is read as UTC."""
    with duckdb.connect(os.environ[DUCKDB_ENV], read_only=True) as connection:
        types = dict(
            connection.execute(
                "select column_name, data_type from information_schema.columns"
                " where table_name = 'orders'"
            ).fetchall()
        )
    assert types["ordered_at"] == "TIMESTAMP" and types["amount"] == "DECIMAL(12,2)"


def test_unset_connection_variable_names_pair_and_variable(
    scratch, spark, remote_legacy, monkeypatch
):
    monkeypatch.delenv(DUCKDB_ENV)
    result = reconcile(scratch, [pair(DUCKDB, "copy", "legacy_orders")])
    assert result.success, error_text(result)
    assert (
        f"parity pair 'copy': source relation main.orders: environment variable {DUCKDB_ENV}"
        in pair_error(spark, scratch.schema, "copy")
    )


def test_joindiff_is_refused_for_a_side_outside_spark(scratch, remote_legacy):
    result = reconcile(scratch, [pair(DUCKDB, "copy", "legacy_orders", algorithm="joindiff")])
    assert not result.success
    assert "parity pair 'copy': joindiff needs both sides in the Spark session" in error_text(
        result
    )


def test_incomparable_columns_are_a_schema_finding_naming_both_types(scratch, spark, remote_legacy):
    """A date paired with a decimal is reported, not compared and not a crash: the pair's other
    columns are still reconciled, and the pair fails."""
    assert reconcile(
        scratch,
        [
            pair(
                DUCKDB,
                "renamed",
                "legacy_orders",
                columns=["ship_date", "status"],
                renames={"ship_date": "amount"},
            )
        ],
    ).success
    summaries, differences = by_pair(spark, scratch.schema)
    summary = summaries["renamed"]
    assert (summary["schema_findings"], summary["differing_rows"], summary["passed"]) == (
        1,
        0,
        False,
    )
    (reported,) = differences["renamed"]
    assert (reported["key"], reported["kind"], reported["column_name"]) == (
        None,
        "type_mismatch",
        "ship_date",
    )
    assert (reported["source_value"], reported["target_value"]) == (
        "date (duckdb)",
        "decimal(12,2) (spark)",
    )
