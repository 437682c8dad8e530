"""A pair whose differences fill 100,000 cells, from a PostgreSQL table to a DuckDB one: the
cells each pass checks and each download fetches reach the engines as one array parameter per
query, never as SQL literals, and every difference is found with no row moved twice. The
PostgreSQL side spreads its passes over two sessions (the default), the DuckDB side keeps to
one."""

from __future__ import annotations

import duckdb
import psycopg
import pytest

from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import reconcile
from tests.integration.run_results import by_pair

ROWS = 200_000
POSTGRES_ENV, DUCKDB_ENV = "PARITY_TEST_MANY_PG", "PARITY_TEST_MANY_DUCKDB"


def sources(duckdb_connections: object) -> str:
    return f"""
version: 2
sources:
  - name: many_pg
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {POSTGRES_ENV}}}
    tables:
      - name: wide
  - name: many_duckdb
    schema: main
    meta:
      parity: {{dialect: duckdb, connection_env: {DUCKDB_ENV}, connections: {duckdb_connections}}}
    tables:
      - name: wide
"""


@pytest.fixture(scope="module")
def every_other_row_changed(scratch, postgres_url, tmp_path_factory):
    """The same 200,000 keyed rows in both engines, every even key's label changed in DuckDB."""
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("drop table if exists wide")
        connection.execute("create table wide (id integer primary key, label text)")
        connection.execute(
            f"insert into wide select i, 'row ' || i from generate_series(1, {ROWS}) as i"
        )
    database = tmp_path_factory.mktemp("many") / "many.duckdb"
    with duckdb.connect(str(database)) as connection:
        connection.execute(
            "create table wide as select cast(i as integer) as id,"
            " case when i % 2 = 0 then 'changed ' else 'row ' end || i as label"
            f" from range(1, {ROWS + 1}) as t (i)"
        )
    with pytest.MonkeyPatch.context() as patch, scratch.file("models/many_sources.yml", sources(1)):
        patch.setenv(POSTGRES_ENV, postgres_url)
        patch.setenv(DUCKDB_ENV, str(database))
        yield


PAIR = {
    "name": "many_cells",
    "source": {"source": ["many_pg", "wide"]},
    "target": {"source": ["many_duckdb", "wide"]},
    "key": "id",
    # Cells of one key: each differing key is a cell of its own.
    "bisection_threshold": 1,
}


def test_a_hundred_thousand_differing_cells_travel_as_arrays(
    scratch, spark, every_other_row_changed
):
    logged: list[str] = []
    assert reconcile(scratch, [PAIR], logged).success
    summaries, _ = by_pair(spark, scratch.schema)
    found = summaries["many_cells"]
    assert found["differing_rows"] == ROWS // 2
    # Only the differing rows left either engine.
    assert (found["source_rows_moved"], found["target_rows_moved"]) == (ROWS // 2, ROWS // 2)
    # Each differing key in a cell of its own, all downloaded at once but for a key left alone
    # in its cell a level up (key 200,000, the last of the table).
    downloaded = [line for line in logged if "segments downloaded" in line]
    assert sum(int(line.split("': ")[1].split()[0]) for line in downloaded) == ROWS // 2
    (row,) = spark.table(f"{scratch.schema}.parity_plan").collect()
    assert (row["source_connections"], row["target_connections"]) == ("2", "1")


@pytest.mark.parametrize("connections", ["0", "many", "2.5"])
def test_connections_must_be_a_whole_number(scratch, every_other_row_changed, connections):
    scratch.write("models/many_sources.yml", sources(connections))
    try:
        refused = reconcile(scratch, [PAIR])
        assert not refused.success
        assert (
            "source many_duckdb.wide: parity.connections must be a whole number from 1 to 64,"
            f" not '{connections}'"
        ) in error_text(refused)
    finally:
        scratch.write("models/many_sources.yml", sources(1))
