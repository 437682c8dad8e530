"""Parquet files whose UUID column DuckDB wrote as FIXED_LEN_BYTE_ARRAY (UUID), which Spark 4
refuses to infer: read with that column as binary, its 16 bytes compared as the hyphenated
lower-case text of a PostgreSQL uuid, a DuckDB uuid and a Spark string holding a UUID."""

from __future__ import annotations

import json
import random
import uuid

import duckdb
import psycopg
import pytest
import yaml

from parity.reference import canonical_text
from tests.integration.remote_tables import reconcile

SOURCES_FILE = "models/uuid_sources.yml"
DUCKDB_ENV = "PARITY_TEST_UUID_DUCKDB"
POSTGRES_ENV = "PARITY_TEST_UUID_PG"
ROWS = 200
CHANGED_KEY = 7


def uuid_rows() -> list[tuple[int, uuid.UUID | None, str]]:
    """Random UUIDs (every few NULL) with an int key and a text column."""
    draw = random.Random(17)
    return [
        (i, None if i % 9 == 0 else uuid.UUID(int=draw.getrandbits(128), version=4), f"row {i}")
        for i in range(1, ROWS + 1)
    ]


def write_parquet(connection, rows, folder) -> None:
    """DuckDB writes its uuid type as FIXED_LEN_BYTE_ARRAY (UUID)."""
    folder.mkdir(parents=True)
    connection.execute("create or replace table written (id integer, u uuid, t varchar)")
    connection.executemany("insert into written values (?, ?, ?)", rows)
    connection.execute(f"copy written to '{folder / 'part-0.parquet'}' (format parquet)")


@pytest.fixture(scope="module")
def uuid_sides(scratch, spark, postgres_url, tmp_path_factory):
    """The same rows as Parquet files (and a copy with one UUID changed), a Spark table of UUID
    strings in mixed case, a DuckDB table and a PostgreSQL table of uuids, all declared as
    sources of the project."""
    folder = tmp_path_factory.mktemp("uuids")
    rows = uuid_rows()
    changed = [(i, uuid.UUID(int=1) if i == CHANGED_KEY else u, t) for i, u, t in rows]
    database = folder / "uuids.duckdb"
    with duckdb.connect(str(database)) as connection:
        write_parquet(connection, rows, folder / "files")
        write_parquet(connection, changed, folder / "files_changed")
        connection.execute("create table uuids (id integer primary key, u uuid, t varchar)")
        connection.executemany("insert into uuids values (?, ?, ?)", rows)
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("drop table if exists uuids")
        connection.execute("create table uuids (id integer primary key, u uuid, t text)")
        connection.cursor().executemany("insert into uuids values (%s, %s, %s)", rows)
    # Text in Spark: odd keys upper-case, as some writers spell them.
    strings = [
        (i, None if u is None else str(u).upper() if i % 2 else str(u), t) for i, u, t in rows
    ]
    spark.createDataFrame(strings, "id int, u string, t string").write.mode(
        "overwrite"
    ).saveAsTable(f"{scratch.schema}.uuid_strings")

    sources = {
        "version": 2,
        "sources": [
            {
                "name": "uuid_files",
                "meta": {"parity": {"format": "parquet"}},
                "tables": [
                    {"name": name, "meta": {"parity": {"path": str(folder / name)}}}
                    for name in ("files", "files_changed")
                ],
            },
            {"name": "uuid_spark", "schema": scratch.schema, "tables": [{"name": "uuid_strings"}]},
            {
                "name": "uuid_duckdb",
                "schema": "main",
                "meta": {"parity": {"dialect": "duckdb", "connection_env": DUCKDB_ENV}},
                "tables": [{"name": "uuids"}],
            },
            {
                "name": "uuid_pg",
                "schema": "public",
                "meta": {"parity": {"dialect": "postgres", "connection_env": POSTGRES_ENV}},
                "tables": [{"name": "uuids"}],
            },
        ],
    }
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv(DUCKDB_ENV, str(database))
        environment.setenv(POSTGRES_ENV, postgres_url)
        scratch.write(SOURCES_FILE, yaml.safe_dump(sources))
        yield
        (scratch.path / SOURCES_FILE).unlink()


def pair(name: str, files: str, target: list[str], algorithm: str = "hashdiff") -> dict:
    return {
        "name": name,
        "source": {"source": ["uuid_files", files]},
        "target": {"source": target},
        "key": "id",
        "algorithm": algorithm,
    }


@pytest.fixture(scope="module")
def reconciled(scratch, spark, uuid_sides):
    pairs = [
        pair("uuid_spark", "files", ["uuid_spark", "uuid_strings"]),
        pair("uuid_spark_joindiff", "files", ["uuid_spark", "uuid_strings"], "joindiff"),
        pair("uuid_duckdb", "files", ["uuid_duckdb", "uuids"]),
        pair("uuid_pg", "files", ["uuid_pg", "uuids"]),
        pair("uuid_changed", "files_changed", ["uuid_duckdb", "uuids"]),
    ]
    assert reconcile(scratch, pairs).success
    table = f"{scratch.schema}.parity_"
    return {
        "summary": {r["pair_name"]: r for r in spark.table(f"{table}summary").collect()},
        "differences": spark.table(f"{table}differences").collect(),
        "plan": {r["pair_name"]: r for r in spark.table(f"{table}plan").collect()},
    }


@pytest.mark.parametrize("name", ["uuid_spark", "uuid_duckdb", "uuid_pg"])
def test_equal_copies_match_by_checksum_alone(reconciled, name):
    summary = reconciled["summary"][name]
    assert summary["passed"] and summary["differing_rows"] == 0
    assert (summary["source_rows"], summary["checksum_passes"], summary["rows_moved"]) == (
        ROWS,
        1,
        0,
    )


def test_joindiff_matches_the_bytes_with_text_too(reconciled):
    summary = reconciled["summary"]["uuid_spark_joindiff"]
    assert summary["algorithm"] == "joindiff"
    assert summary["passed"] and summary["differing_rows"] == 0


def test_a_changed_uuid_is_found_as_text(reconciled):
    found = [
        (r["key"], r["kind"], r["column_name"], r["source_value"], r["target_value"])
        for r in reconciled["differences"]
        if r["pair_name"] == "uuid_changed"
    ]
    original = dict((i, u) for i, u, _ in uuid_rows())[CHANGED_KEY]
    assert found == [
        (str(CHANGED_KEY), "value_mismatch", "u", str(uuid.UUID(int=1)), str(original))
    ]


def test_the_plan_reads_the_files_through_a_view_with_uuids_as_bytes(reconciled):
    planned = reconciled["plan"]["uuid_duckdb"]
    assert planned["source_relation_name"].startswith("parquet.`")
    view = json.loads(planned["source_file_view"])
    assert (view["schema"], view["uuid_columns"]) == ("id INT,u BINARY,t STRING", ["u"])
    assert f"`{view['view']}`" in planned["source_canonical_sql"]
    snapshot = {
        c["column_name"]: c["data_type"] for c in json.loads(planned["source_schema_snapshot"])
    }
    assert snapshot == {"id": "int", "u": "uuid", "t": "string"}


def test_spark_canonical_uuids_are_the_references(reconciled, spark):
    """The file side's canonical SQL, run as planned, against the reference on the raw bytes."""
    planned = reconciled["plan"]["uuid_duckdb"]
    view = json.loads(planned["source_file_view"])["view"]
    held = {r["id"]: r["u"] for r in spark.table(f"`{view}`").collect()}
    canonical = spark.sql(planned["source_canonical_sql"]).collect()
    assert len(canonical) == ROWS and sum(u is None for u in held.values()) == ROWS // 9
    for row in canonical:
        key, text = int(row["__parity_k0"]), row["__parity_c0"]
        assert text == canonical_text({"kind": "uuid", "bytes": True}, held[key])
