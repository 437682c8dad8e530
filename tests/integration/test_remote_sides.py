"""A pair side in PostgreSQL, served on 127.0.0.1 by the tests, or in DuckDB: checksums run inside
that engine, with the same findings as inside Spark, and only the rows of small differing
segments leave it. The tests every engine shares run on each (`engine`); each engine's own
follow. Every pair whose run succeeds is reconciled in one run, each test reading its own."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

import duckdb
import psycopg
import pytest

from parity.reference import row_hash
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import DUCKDB_ENV, POSTGRES_ENV, reconcile, remote_pair
from tests.integration.run_results import PublishedRun, error_of, finding


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
    """The engine's copy of the legacy orders against a model of the project, named for the
    engine."""
    return remote_pair(f"{name}_{engine.dialect}", engine.source, {"ref": target}, **options)


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


MIGRATED = {"bisection_threshold": 64, "enforce_key": "warn"}
MASKED = {"enforce_key": "warn", "sensitive_columns": ["amount"]}
CLOSED = "postgresql://parity:secret-password@127.0.0.1:1/postgres"


def reconciled_pairs() -> list[dict]:
    """Every pair the tests below read whose run succeeds, each engine's under its own name."""
    per_engine = [
        pairs
        for engine in ENGINES
        for pairs in (
            pair(engine, "copy", "legacy_orders"),
            pair(engine, "migrated", "lakehouse_orders", **MIGRATED),
            pair(engine, "masked", "lakehouse_orders", **MASKED),
        )
    ]
    both_outside = remote_pair("pg_duckdb", POSTGRES.source, {"source": [DUCKDB.source, "orders"]})
    renamed = remote_pair(
        "renamed",
        DUCKDB.source,
        {"ref": "legacy_orders"},
        columns=["ship_date", "status"],
        renames={"ship_date": "amount"},
    )
    return [*per_engine, both_outside, renamed]


@pytest.fixture(scope="module")
def remote_run(scratch, spark, remote_legacy) -> PublishedRun:
    """The pairs above, reconciled in one run."""
    result = reconcile(scratch, reconciled_pairs())
    assert result.success, error_text(result)
    return PublishedRun.read(spark, scratch.schema)


@pytest.fixture(scope="module")
def unreachable_run(scratch, spark, remote_legacy) -> dict[str, str]:
    """A run with PostgreSQL's URL pointing at a closed port and DuckDB's variable unset: each
    engine's pair is an error of its own, by pair name."""
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv(POSTGRES_ENV, CLOSED)
        environment.delenv(DUCKDB_ENV)
        pairs = [
            pair(POSTGRES, "unreachable", "legacy_orders"),
            pair(DUCKDB, "unset", "legacy_orders"),
        ]
        result = reconcile(scratch, pairs)
    assert result.success, error_text(result)
    summaries, _, _ = PublishedRun.read(spark, scratch.schema).of(pairs)
    return {name: error_of(summary) for name, summary in summaries.items()}


# Every engine.


def test_equal_copy_matches_by_checksum_alone(remote_run, engine):
    found = summary(remote_run, f"copy_{engine.dialect}")
    assert found["passed"] and found["algorithm"] == "hashdiff"
    assert (found["source_rows"], found["checksum_passes"], found["rows_moved"]) == (3000, 1, 0)
    assert (found["source_rows_moved"], found["target_rows_moved"]) == (0, 0)


def test_planted_differences_found_across_engines(remote_run, engine):
    name = f"migrated_{engine.dialect}"
    summaries, differences, _ = remote_run.of([{"name": name}], finding, set)
    found = differences[name]
    assert ("42", "value_mismatch", "amount") in found
    assert ("1000001", "missing_in_source", None) in found
    assert ("2718", "value_mismatch", "ordered_at") in found
    assert ("770", "value_mismatch", "note") in found
    assert ("2000", "duplicate_in_target", None) in found
    assert ("99", "value_mismatch", "discount") in found
    assert len(found) == 13
    # Only the rows of differing cells of at most 64 rows left the engines: one cell at most per
    # differing key.
    moved = summaries[name]
    differing_keys = len({key for key, _, _ in found})
    assert 0 < moved["source_rows_moved"] <= differing_keys * 64
    assert 0 < moved["target_rows_moved"] <= differing_keys * 64
    assert moved["rows_moved"] == moved["source_rows_moved"] + moved["target_rows_moved"]


def test_engine_sql_hashes_as_the_reference_does(remote_run, engine):
    plan = remote_run.plans[f"copy_{engine.dialect}"]
    assert plan.source.dialect == engine.dialect and os.environ[engine.env] not in str(plan)
    names, rows = engine.query(plan.source.canonical_sql)
    values = [i for i, n in enumerate(names) if n.startswith(("__parity_k", "__parity_c"))]
    for row in rows:
        assert row[names.index("__parity_hash")] == row_hash([row[i] for i in values])


def test_sensitive_columns_of_an_engine_side_publish_only_hashes(remote_run, engine):
    name = f"masked_{engine.dialect}"
    _, differences, _ = remote_run.of([{"name": name}])
    found = {(r["key"], r["column_name"]): r for r in differences[name]}
    amount = found[("42", "amount")]
    shown = ("source_value", "target_value", "delta", "source_canonical", "target_canonical")
    assert [amount[name] for name in shown] == [None] * 5
    assert (amount["source_hash"], amount["target_hash"]) == (sha("3986.18"), sha("3986.19"))
    # A missing row's whole-row JSON hashes the sensitive column and shows the others.
    lost = json.loads(found[("17", None)]["source_value"])
    assert lost["amount"].startswith("sha256:") and lost["status"] == "shipped"
    assert found[("64", "customer_id")]["source_value"] == "1817"


# PostgreSQL.


def test_both_sides_outside_spark(remote_run):
    found = summary(remote_run, "pg_duckdb")
    assert found["passed"] and (found["checksum_passes"], found["rows_moved"]) == (1, 0)
    assert (found["source_rows_moved"], found["target_rows_moved"]) == (0, 0)


def test_unreachable_server_names_pair_and_variable_not_the_url(unreachable_run):
    message = unreachable_run["unreachable_postgres"]
    assert (
        "parity pair 'unreachable_postgres': source relation public.orders: cannot connect to"
        f" postgres through {POSTGRES_ENV}" in message
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


def test_unset_connection_variable_names_pair_and_variable(unreachable_run):
    assert (
        "parity pair 'unset_duckdb': source relation main.orders:"
        f" environment variable {DUCKDB_ENV}" in unreachable_run["unset_duckdb"]
    )


def test_joindiff_is_refused_for_a_side_outside_spark(scratch, remote_legacy):
    result = reconcile(scratch, [pair(DUCKDB, "copy", "legacy_orders", algorithm="joindiff")])
    assert not result.success
    assert (
        "parity pair 'copy_duckdb': joindiff needs both sides in the Spark session"
        in error_text(result)
    )


def test_incomparable_columns_are_a_schema_finding_naming_both_types(remote_run):
    """A date paired with a decimal is reported, not compared and not a crash: the pair's other
    columns are still reconciled, and the pair fails."""
    summaries, differences, _ = remote_run.of([{"name": "renamed"}])
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


def summary(run: PublishedRun, name: str) -> dict:
    (found,) = [row for row in run.summaries if row["pair_name"] == name]
    return found.asDict()
