"""A pair side in DuckDB: checksums computed inside DuckDB, the same findings as inside Spark."""

from __future__ import annotations

import os

import duckdb

from parity.plan import pairs_from_rows
from parity.reference import row_hash
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import DUCKDB_ENV, reconcile, remote_pair


def pair(name, target, **options):
    return remote_pair(name, "legacy_duckdb", {"ref": target}, **options)


def test_equal_copy_matches_by_checksum_alone(scratch, spark, remote_legacy):
    assert reconcile(scratch, [pair("copy", "legacy_orders")]).success
    summary = spark.table(f"{scratch.schema}.parity_summary").first()
    assert summary["algorithm"] == "hashdiff" and summary["passed"]
    assert (summary["source_rows"], summary["checksum_passes"], summary["rows_moved"]) == (
        3000,
        1,
        0,
    )
    assert (summary["source_rows_moved"], summary["target_rows_moved"]) == (0, 0)
    with duckdb.connect(os.environ[DUCKDB_ENV], read_only=True) as connection:
        types = dict(
            connection.execute(
                "select column_name, data_type from information_schema.columns"
                " where table_name = 'orders'"
            ).fetchall()
        )
    # DuckDB reads Spark's Parquet timestamps as naive UTC values: a zoned timestamp on one side
    # and a naive one on the other, equal because the naive one is read as UTC.
    assert types["ordered_at"] == "TIMESTAMP" and types["amount"] == "DECIMAL(12,2)"


def test_planted_differences_found_across_engines(scratch, spark, remote_legacy):
    assert reconcile(
        scratch, [pair("migrated", "lakehouse_orders", bisection_threshold=64, enforce_key="warn")]
    ).success
    found = {
        (r["key"], r["kind"], r["column_name"])
        for r in spark.table(f"{scratch.schema}.parity_differences").collect()
    }
    assert ("42", "value_mismatch", "amount") in found and (
        "770",
        "value_mismatch",
        "note",
    ) in found
    assert ("2718", "value_mismatch", "ordered_at") in found and (
        "2000",
        "duplicate_in_target",
        None,
    ) in found
    assert ("99", "value_mismatch", "discount") in found
    assert len(found) == 13
    summary = spark.table(f"{scratch.schema}.parity_summary").first()
    # Only the rows of small differing cells left the engines: cells of <= 64 rows, one at most
    # per differing key.
    differing_keys = len({key for key, _, _ in found})
    assert 0 < summary["source_rows_moved"] <= differing_keys * 64
    assert 0 < summary["target_rows_moved"] <= differing_keys * 64
    assert summary["rows_moved"] == summary["source_rows_moved"] + summary["target_rows_moved"]


def test_duckdb_sql_hashes_as_the_reference_does(scratch, spark, remote_legacy):
    assert reconcile(scratch, [pair("copy", "legacy_orders")]).success
    (plan,) = pairs_from_rows(
        [r.asDict() for r in spark.table(f"{scratch.schema}.parity_plan").collect()]
    )
    assert plan.source.dialect == "duckdb" and os.environ[DUCKDB_ENV] not in str(plan)
    with duckdb.connect(os.environ[DUCKDB_ENV], read_only=True) as connection:
        cursor = connection.execute(plan.source.canonical_sql)
        names = [d[0] for d in cursor.description]
        values = [i for i, n in enumerate(names) if n.startswith(("__parity_k", "__parity_c"))]
        for row in cursor.fetchall():
            assert row[names.index("__parity_hash")] == row_hash([row[i] for i in values])


def test_unset_connection_variable_names_pair_and_variable(scratch, remote_legacy, monkeypatch):
    monkeypatch.delenv(DUCKDB_ENV)
    result = reconcile(scratch, [pair("copy", "legacy_orders")])
    assert not result.success
    assert (
        f"parity pair 'copy': source relation main.orders: environment variable {DUCKDB_ENV}"
        in error_text(result)
    )


def test_joindiff_is_refused_for_a_side_outside_spark(scratch, remote_legacy):
    result = reconcile(scratch, [pair("copy", "legacy_orders", algorithm="joindiff")])
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
                "renamed",
                "legacy_orders",
                columns=["ship_date", "status"],
                renames={"ship_date": "amount"},
            )
        ],
    ).success
    summary = spark.table(f"{scratch.schema}.parity_summary").first()
    assert (summary["schema_findings"], summary["differing_rows"], summary["passed"]) == (
        1,
        0,
        False,
    )
    (finding,) = spark.table(f"{scratch.schema}.parity_differences").collect()
    assert (finding["key"], finding["kind"], finding["column_name"]) == (
        None,
        "type_mismatch",
        "ship_date",
    )
    assert (finding["source_value"], finding["target_value"]) == (
        "date (duckdb)",
        "decimal(12,2) (spark)",
    )
