"""A pair side in PostgreSQL, served on 127.0.0.1 by the tests: checksums run inside PostgreSQL,
only the rows of small differing segments leave it."""

from __future__ import annotations

import os

import psycopg

from parity.plan import pairs_from_rows
from parity.reference import row_hash
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import POSTGRES_ENV, reconcile, remote_pair


def pair(name, target, **options):
    return remote_pair(name, "legacy_pg", target, **options)


def summary(spark, scratch):
    return spark.table(f"{scratch.schema}.parity_summary").first()


def test_equal_copy_matches_by_checksum_alone(scratch, spark, remote_legacy):
    assert reconcile(scratch, [pair("copy", {"ref": "legacy_orders"})]).success
    found = summary(spark, scratch)
    assert found["passed"] and found["algorithm"] == "hashdiff"
    assert (found["source_rows"], found["checksum_passes"], found["rows_moved"]) == (3000, 1, 0)
    assert (found["source_rows_moved"], found["target_rows_moved"]) == (0, 0)


def test_planted_differences_found_across_engines(scratch, spark, remote_legacy):
    assert reconcile(
        scratch,
        [pair("migrated", {"ref": "lakehouse_orders"}, bisection_threshold=64, enforce_key="warn")],
    ).success
    found = {
        (r["key"], r["kind"], r["column_name"])
        for r in spark.table(f"{scratch.schema}.parity_differences").collect()
    }
    assert ("42", "value_mismatch", "amount") in found and (
        "1000001",
        "missing_in_source",
        None,
    ) in found
    assert ("2718", "value_mismatch", "ordered_at") in found and (
        "770",
        "value_mismatch",
        "note",
    ) in found
    assert ("99", "value_mismatch", "discount") in found and len(found) == 13
    # Only the rows of differing cells of at most 64 rows left PostgreSQL: one cell at most per
    # differing key.
    moved = summary(spark, scratch)
    differing_keys = len({key for key, _, _ in found})
    assert 0 < moved["source_rows_moved"] <= differing_keys * 64
    assert 0 < moved["target_rows_moved"] <= differing_keys * 64
    assert moved["rows_moved"] == moved["source_rows_moved"] + moved["target_rows_moved"]


def test_postgres_sql_hashes_as_the_reference_does(scratch, spark, remote_legacy):
    assert reconcile(scratch, [pair("copy", {"ref": "legacy_orders"})]).success
    (plan,) = pairs_from_rows(
        [r.asDict() for r in spark.table(f"{scratch.schema}.parity_plan").collect()]
    )
    assert plan.source.dialect == "postgres" and os.environ[POSTGRES_ENV] not in str(plan)
    with psycopg.connect(os.environ[POSTGRES_ENV]) as connection:
        cursor = connection.execute(plan.source.canonical_sql)
        names = [d.name for d in cursor.description]
        values = [i for i, n in enumerate(names) if n.startswith(("__parity_k", "__parity_c"))]
        for row in cursor.fetchall():
            assert row[names.index("__parity_hash")] == row_hash([row[i] for i in values])


def test_both_sides_outside_spark(scratch, spark, remote_legacy):
    everything = pair("pg_duckdb", {"source": ["legacy_duckdb", "orders"]})
    assert reconcile(scratch, [everything]).success
    found = summary(spark, scratch)
    assert found["passed"] and (found["checksum_passes"], found["rows_moved"]) == (1, 0)
    assert (found["source_rows_moved"], found["target_rows_moved"]) == (0, 0)


def test_unreachable_server_names_pair_and_variable_not_the_url(
    scratch, remote_legacy, monkeypatch
):
    closed = "postgresql://parity:secret-password@127.0.0.1:1/postgres"
    monkeypatch.setenv(POSTGRES_ENV, closed)
    result = reconcile(scratch, [pair("copy", {"ref": "legacy_orders"})])
    assert not result.success
    message = error_text(result)
    assert (
        "parity pair 'copy': source relation public.orders: cannot connect to postgres"
        f" through {POSTGRES_ENV}" in message
    )
    assert "secret-password" not in message
