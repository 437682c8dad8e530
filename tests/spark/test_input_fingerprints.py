"""Input fingerprints of a side's relation: the same inputs give the same digest, a change Spark
would read changes it, and what parity cannot fingerprint cheaply says why instead."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from pyspark.sql import SparkSession

from parity.plan import SidePlan
from parity.sides.fingerprints import InputFingerprint, input_fingerprint
from tests.plan_factory import side_plan

DATABASE = "parity_fingerprints"


def side(relation_name: str, dialect: str = "spark", connection_env: str = "") -> SidePlan:
    return side_plan(
        dialect=dialect,
        in_session=dialect == "spark",
        connection_env=connection_env,
        relation_name=relation_name,
        key_names=("id",),
        column_names=("v",),
        key_columns=("k",),
        value_columns=("v",),
    )


def fingerprint(spark: SparkSession, relation_name: str) -> InputFingerprint:
    return input_fingerprint(spark, side(relation_name))


@pytest.fixture(scope="module")
def database(spark: SparkSession) -> Iterator[str]:
    spark.sql(f"create database if not exists {DATABASE}")
    yield DATABASE
    spark.sql(f"drop database if exists {DATABASE} cascade")


def write_parquet(spark: SparkSession, folder: Path, rows: int) -> None:
    spark.range(rows).coalesce(1).write.mode("overwrite").parquet(str(folder))


def test_files_change_with_what_spark_reads_and_not_otherwise(spark, tmp_path):
    folder = tmp_path / "orders"
    write_parquet(spark, folder, 3)
    relation = f"parquet.`{folder}`"
    first = fingerprint(spark, relation)
    assert first.kind == "files" and len(first.digest) == 64
    assert first.detail.startswith("1 file, ") and "newest 20" in first.detail, first.detail
    assert fingerprint(spark, relation) == first

    # Spark's own markers, checksums and temporary directories are not data.
    (folder / "_SUCCESS").write_text("again")
    (folder / ".part-9.parquet.crc").write_bytes(b"crc")
    (folder / "_temporary").mkdir()
    (folder / "_temporary" / "part-9.parquet").write_bytes(b"half written")
    assert fingerprint(spark, relation) == first

    data = next(folder.glob("part-*.parquet"))
    shutil.copy(data, folder / "part-extra.parquet")
    added = fingerprint(spark, relation)
    assert added.digest != first.digest and added.detail.startswith("2 files")

    stat = data.stat()
    os.utime(data, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    touched = fingerprint(spark, relation)
    assert touched.digest not in {first.digest, added.digest}

    with data.open("ab") as grown:  # the size changes, the time set back to the last one
        grown.write(b"\0")
    os.utime(data, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    grown = fingerprint(spark, relation)
    assert grown.digest != touched.digest

    (folder / "part-extra.parquet").unlink()
    assert fingerprint(spark, relation).digest != grown.digest


def test_a_single_file_or_a_glob_is_what_it_names(spark, tmp_path):
    write_parquet(spark, tmp_path / "one", 2)
    data = next((tmp_path / "one").glob("part-*.parquet"))
    relation = f"parquet.`{data}`"
    first = fingerprint(spark, relation)
    assert first.kind == "files" and first.detail.startswith("1 file, ")
    globbed = f"parquet.`{tmp_path}/one/part-*`"
    assert fingerprint(spark, globbed).detail == first.detail
    shutil.copy(data, tmp_path / "one" / "other.parquet")  # not matched
    assert fingerprint(spark, relation) == first
    assert fingerprint(spark, globbed).detail == first.detail
    os.utime(data, ns=(0, data.stat().st_mtime_ns + 5_000_000_000))
    assert fingerprint(spark, relation).digest != first.digest
    shutil.copy(data, tmp_path / "one" / "part-copy.parquet")  # matched
    assert fingerprint(spark, globbed).detail.startswith("2 files, ")


def test_a_missing_path_is_not_fingerprinted(spark, tmp_path):
    missing = fingerprint(spark, f"json.`{tmp_path / 'nowhere'}`")
    assert missing == InputFingerprint("none", "", f"missing: no file at {tmp_path / 'nowhere'}")


def test_a_managed_table_changes_with_an_insert_or_its_options_only(spark, database):
    table = f"`{database}`.`managed`"
    spark.sql(f"create table {table} (id int, v string) using parquet")
    spark.sql(f"insert into {table} values (1, 'a')")
    first = fingerprint(spark, table)
    assert first.kind == "files" and first.detail.startswith("managed parquet table, 1 file")
    spark.table(table).collect()  # reading it changes nothing
    assert fingerprint(spark, f"spark_catalog.{database}.managed") == first
    spark.sql(f"insert into {table} values (2, 'b')")
    inserted = fingerprint(spark, table)
    assert inserted.digest != first.digest
    spark.sql(f"alter table {table} set serdeproperties ('mergeSchema' = 'true')")
    assert fingerprint(spark, table).digest != inserted.digest


def test_a_partitioned_table_changes_with_a_new_partition(spark, database, tmp_path):
    table = f"{database}.partitioned"
    spark.sql(f"create table {table} (id int, day string) using parquet partitioned by (day)")
    spark.sql(f"insert into {table} values (1, 'mon')")
    first = fingerprint(spark, table)
    assert first.detail.startswith("managed parquet table, 1 partition, 1 file,"), first.detail
    spark.sql(f"insert into {table} values (2, 'tue')")
    second = fingerprint(spark, table)
    assert second.digest != first.digest and ", 2 partitions, 2 files" in second.detail

    # A partition of its own location, outside the table's, is listed too.
    elsewhere = tmp_path / "wed"
    spark.sql(f"alter table {table} add partition (day = 'wed') location '{elsewhere}'")
    registered = fingerprint(spark, table)
    assert registered.digest != second.digest
    spark.range(1).selectExpr("cast(id as int) as id").write.mode("append").parquet(str(elsewhere))
    assert fingerprint(spark, table).digest != registered.digest


def test_views_are_not_fingerprinted(spark, database):
    spark.sql("create or replace temporary view parity_fingerprinted as select 1 as id")
    spark.sql(f"create or replace view {database}.stored_view as select 1 as id")
    assert fingerprint(spark, "parity_fingerprinted") == InputFingerprint(
        "none", "", "a temporary view: its inputs are not known"
    )
    assert fingerprint(spark, f"{database}.stored_view") == InputFingerprint(
        "none", "", "a view: its inputs are not known"
    )
    assert fingerprint(spark, f"{database}.absent").detail == f"missing: no table {database}.absent"


def test_a_duckdb_side_is_its_database_file(spark, tmp_path, monkeypatch):
    database = tmp_path / "legacy.duckdb"
    with duckdb.connect(str(database)) as connection:
        connection.execute("create table orders as select 1 as id")
    monkeypatch.setenv("PARITY_TEST_FINGERPRINTED_DUCKDB", str(database))
    plan = side("main.orders", "duckdb", "PARITY_TEST_FINGERPRINTED_DUCKDB")
    first = input_fingerprint(spark, plan)
    assert first.kind == "database_file" and first.detail.startswith("database file: legacy.duckdb")
    assert input_fingerprint(spark, plan) == first
    with duckdb.connect(str(database)) as connection:
        connection.execute("insert into orders values (2)")
    assert input_fingerprint(spark, plan).digest != first.digest


@pytest.mark.parametrize(
    ("dialect", "reason"),
    [
        # A PostgreSQL side's fingerprint is the plan's (sides/pg_fingerprint.py): here, none.
        ("postgres", "the plan read no fingerprint of it"),
        ("mysql", "compared by its whole-table checksum"),
    ],
)
def test_servers_are_fingerprinted_without_a_session(spark, dialect, reason):
    # The variable is not set: nothing may try to connect.
    plan = side("public.orders", dialect, "PARITY_TEST_NO_SUCH_VARIABLE")
    assert input_fingerprint(spark, plan) == InputFingerprint("none", "", reason)


def test_an_error_gives_no_fingerprint_and_no_failure(spark, caplog):
    broken = fingerprint(spark, "`unclosed")
    assert broken.kind == "none" and broken.detail.startswith("cannot fingerprint: ")
    assert "\n" not in broken.detail
    assert "source relation `unclosed" in caplog.text
