"""Corrections applied to a table in Spark's catalog: the corrected version written beside the
current one and swapped in by one catalog operation, the previous version kept until the next
apply, the same run never applied twice, and the next build finding the pair in parity."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import duckdb
import pytest

from parity.sync.spark.hadoop_files import exists
from parity.sync.spark.version_names import previous_name
from tests.integration.applies import applied as apply_pair
from tests.integration.applies import summary as pair_summary
from tests.integration.correction_tables import SOURCE, TARGET, model, notes_shown
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import engine_sources

PAIR = {
    "name": "to_spark",
    "source": {"ref": "correction_source"},
    "target": {"ref": "spark_corrected"},
    "key": ["id", "region"],
    "enforce_key": "warn",
    "tolerance": {"columns": {"amount": {"abs_tol": 0.01}}},
    "sync": {"max_corrections": 100},
}
# The same corrections, but for a note the pair never publishes: the apply reads it from the
# source by key.
HIDDEN = {
    **PAIR,
    "name": "hidden_to_spark",
    "target": {"ref": "spark_hidden"},
    "sensitive_columns": ["note"],
}
# The same, from a DuckDB copy of the source: the hidden notes are read through its own session.
DUCKDB_ENV = "PARITY_TEST_APPLY_SOURCE"
FROM_DUCKDB = {
    **HIDDEN,
    "name": "duckdb_to_spark",
    "source": {"source": ["apply_source", "source_rows"]},
    "target": {"ref": "spark_from_duckdb"},
}
PAIRS = [PAIR, HIDDEN, FROM_DUCKDB]
COLUMNS = "id, region, cast(amount as string), label, note, unix_micros(placed_at)"
# The source's rows, but for the amount of order 6, within its tolerance: never corrected.
CORRECTED = [(*r[:2], "60.0100000000", *r[3:]) if r[0] == 6 else r for r in SOURCE]


def rows_of(spark, relation: str) -> list[tuple]:
    found = spark.sql(f"select {COLUMNS} from {relation}").collect()
    return sorted((tuple(r) for r in found), key=lambda r: (r[0], r[1], r[3] or ""))


def ordered(rows) -> list[tuple]:
    return sorted(rows, key=lambda r: (r[0], r[1], r[3] or ""))


def location(spark, table: str) -> str:
    described = spark.sql(f"describe table extended {table}").collect()
    return {r[0]: r[1] for r in described}["Location"]


def duckdb_source(folder) -> str:
    """The source's rows in a DuckDB database, in its own types."""
    database = str(folder / "source.duckdb")
    with duckdb.connect(database) as connection:
        connection.execute(
            "create table source_rows (id integer, region text, amount decimal(38, 10),"
            " label text, note text, placed_at timestamptz)"
        )
        connection.execute("set timezone = 'UTC'")
        connection.executemany(
            "insert into source_rows values (?, ?, ?, ?, ?, make_timestamp(?)::timestamptz)",
            SOURCE,
        )
    return database


@pytest.fixture(scope="module")
def project(scratch, spark, tmp_path_factory):
    database = duckdb_source(tmp_path_factory.mktemp("apply_source"))
    sources = engine_sources("apply_source", "duckdb", DUCKDB_ENV, "main", ["source_rows"])
    with ExitStack() as files:
        environment = files.enter_context(pytest.MonkeyPatch.context())
        environment.setenv(DUCKDB_ENV, database)
        files.enter_context(scratch.file("models/apply_source.yml", sources))
        files.enter_context(scratch.file("models/spark_from_duckdb.sql", model(TARGET)))
        files.enter_context(scratch.file("models/correction_source.sql", model(SOURCE)))
        files.enter_context(scratch.file("models/spark_corrected.sql", model(TARGET)))
        files.enter_context(scratch.file("models/spark_hidden.sql", model(TARGET)))
        built = scratch.dbt(
            "run",
            "--select",
            "correction_source spark_corrected spark_hidden spark_from_duckdb",
            vars=scratch.demo_vars(),
        )
        assert built.success
        yield scratch


def applied(project, spark, pair="to_spark", logged=None, **request) -> dict[str, Any]:
    return apply_pair(project, spark, PAIRS, pair, logged, **request)


def summary(project, spark, pair="to_spark") -> dict[str, Any]:
    return pair_summary(project, spark, PAIRS, pair)


def test_a_spark_table_is_swapped_for_its_corrected_version(project, spark):
    table = f"{project.schema}.spark_corrected"
    first = summary(project, spark)
    assert not first["passed"] and first["differing_rows"] == 11
    previous = location(spark, table)

    done = applied(project, spark, write=True)
    assert (done["outcome"], done["reason"], done["conflicts"]) == ("applied", "", 0)
    assert (done["inserts"], done["deletes"], done["updates"]) == (4, 3, 4)
    assert done["statements"] == (
        f"the rows of 9 keys changed in a copy of {table} written beside it, then:"
        f" alter table {table} set location <the copy>"
    )
    assert rows_of(spark, table) == ordered(CORRECTED)
    # The previous version is kept, whole, beside the one the table reads; moved aside from the
    # managed table's own location, which a new table of its name (dbt's next run) needs free.
    kept = done["previous_location"]
    assert kept == previous_name(previous, done["apply_id"]) and not exists(spark, previous)
    assert location(spark, table) == done["location"]
    assert rows_of(spark, f"parquet.`{kept}`") == ordered(TARGET)

    assert applied(project, spark, write=True)["outcome"] == "unchanged"
    assert summary(project, spark)["passed"]
    assert rows_of(spark, table) == ordered(CORRECTED)

    # Undone: the previous version back, once.
    dry = applied(project, spark, undo=True)
    assert (dry["outcome"], dry["reason"]) == (
        "planned",
        f"would restore the version apply {done['apply_id']} replaced",
    )
    assert rows_of(spark, table) == ordered(CORRECTED)
    undone = applied(project, spark, undo=True, write=True)
    assert undone["outcome"] == "undone" and location(spark, table) == kept
    assert rows_of(spark, table) == ordered(TARGET)
    again = applied(project, spark, undo=True, write=True)
    assert again["outcome"] == "refused" and "was undone by apply" in again["reason"]

    # The next apply that writes deletes the version the undo took back; the one after, the
    # version the apply before kept. Nothing else.
    assert not summary(project, spark)["passed"]
    second = applied(project, spark, write=True)
    assert (second["outcome"], second["previous_location"]) == ("applied", kept)
    assert not exists(spark, done["location"]) and exists(spark, kept)
    spark.sql(f"insert overwrite table {table} {model(TARGET)}")
    assert not summary(project, spark)["passed"]
    third = applied(project, spark, write=True)
    assert (third["outcome"], third["previous_location"]) == ("applied", second["location"])
    assert not exists(spark, kept) and exists(spark, second["location"])
    assert rows_of(spark, table) == ordered(CORRECTED)

    # dbt builds the model again, over the corrected table.
    rebuilt = project.dbt("run", "--select", "spark_corrected", vars=project.demo_vars())
    assert rebuilt.success, error_text(rebuilt)
    assert rows_of(spark, table) == ordered(TARGET)


@pytest.mark.parametrize(
    ("pair", "table"),
    [("hidden_to_spark", "spark_hidden"), ("duckdb_to_spark", "spark_from_duckdb")],
)
def test_a_sensitive_column_is_corrected_and_never_published(project, spark, pair, table):
    first = summary(project, spark, pair)
    assert not first["passed"]
    logged: list[str] = []
    done = applied(project, spark, pair, logged, write=True)
    assert (done["outcome"], done["conflicts"]) == ("applied", 0)
    assert rows_of(spark, f"{project.schema}.{table}") == ordered(CORRECTED)
    assert summary(project, spark, pair)["passed"]
    # The notes written are in no result, history or log line.
    assert not notes_shown(spark, project.schema, pair, logged)
