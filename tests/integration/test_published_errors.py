"""Published errors carry no data: probes, each a pair of one dbt run, whose engine's error
would quote a row's value (a sensitive column's), or whose driver would echo a piece of a
password written into its URL. After the run none of the planted values or secrets is in any
table of the schema, in what the run printed, in dbt.log or in a file under target/; and each
pair's error still says what went wrong."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import duckdb
import psycopg
import pytest
import yaml

from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import DUCKDB_ENV, reconcile
from tests.integration.run_results import PublishedRun, error_of

# The planted row values: every note of each probe table (the first row to fail is one).
CANARIES = {
    "postgres": "CanaryPg7Zq",
    "duckdb": "CanaryDuck4Xw",
    "spark": "Canary(Spark9Jv",
}
# Passwords written into URLs as a user may write them: not percent-encoded.
PG_PASSWORD = "p@ss:w/rd%"
MYSQL_PASSWORD = "Secr3t/Passw0rd"
KEYWORD_PASSWORD = "Kw-Secr3t-5Lm"
SECRETS = [PG_PASSWORD, "w/rd%", "rd%@", MYSQL_PASSWORD, "Secr3t", "Passw0rd", KEYWORD_PASSWORD]
ENV = {
    "postgres": "PARITY_TEST_PROBE_PG",
    "duckdb": "PARITY_TEST_PROBE_DUCKDB",
    "pg_url": "PARITY_TEST_PROBE_PG_URL",
    "mysql_url": "PARITY_TEST_PROBE_MYSQL_URL",
    "pg_keyword": "PARITY_TEST_PROBE_PG_KEYWORD",
}
SOURCES_FILE = "models/probe_sources.yml"


def sources(schema: str) -> str:
    def source(name, dialect, env, table_schema):
        meta = {"parity": {"dialect": dialect, "connection_env": env}}
        return {"name": name, "schema": table_schema, "meta": meta, "tables": [{"name": "probe"}]}

    return yaml.safe_dump(
        {
            "version": 2,
            "sources": [
                source("probe_pg", "postgres", ENV["postgres"], "public"),
                source("probe_duckdb", "duckdb", ENV["duckdb"], "main"),
                source("probe_pg_url", "postgres", ENV["pg_url"], "public"),
                source("probe_mysql_url", "mysql", ENV["mysql_url"], "parity"),
                source("probe_pg_keyword", "postgres", ENV["pg_keyword"], "public"),
                {"name": "probe_spark", "schema": schema, "tables": [{"name": "probe"}]},
            ],
        }
    )


def pair(name: str, source: str, where: str | None = None) -> dict:
    found = {
        "name": name,
        "source": {"source": [source, "probe"]},
        "target": {"ref": "legacy_orders"},
        "key": "order_id",
        "sensitive_columns": ["note"],
    }
    if where:
        found["where"] = {"source": where, "target": "1 = 1"}
    return found


# Each probe, and the words its error must still hold.
PROBES = {
    "pg_cast": (
        pair("pg_cast", "probe_pg", "cast(note as integer) > 0"),
        "invalid input syntax for type integer",
    ),
    # A row's value where PostgreSQL quotes a relation's name.
    "pg_regclass": (
        pair("pg_regclass", "probe_pg", "cast(note as regclass) is not null"),
        "does not exist",
    ),
    "duckdb_cast": (
        pair("duckdb_cast", "probe_duckdb", "cast(note as integer) > 0"),
        "Conversion Error: Could not convert string",
    ),
    "spark_to_number": (
        pair("spark_to_number", "probe_spark", "to_number(note, '999') > 0"),
        "INVALID_FORMAT.MISMATCH_INPUT",
    ),
    "pg_url": (pair("pg_url", "probe_pg_url"), "cannot connect to postgres through"),
    "mysql_url": (pair("mysql_url", "probe_mysql_url"), "cannot connect to mysql through"),
    "pg_keyword": (pair("pg_keyword", "probe_pg_keyword"), "authentication failed"),
}


@pytest.fixture(scope="module")
def probed(scratch, spark, remote_legacy, mariadb_url, tmp_path_factory):
    """The probes reconciled in one run: what the run published, and what it printed."""
    pg = urlsplit(remote_legacy)
    with psycopg.connect(remote_legacy, autocommit=True) as connection:
        connection.execute("drop table if exists public.probe")
        connection.execute("create table public.probe as select * from public.orders")
        connection.execute("update public.probe set note = %s", [CANARIES["postgres"]])
    duck = tmp_path_factory.mktemp("probe") / "probe.duckdb"
    with duckdb.connect(str(duck)) as connection:
        connection.execute(f"attach '{os.environ[DUCKDB_ENV]}' as legacy (read_only)")
        connection.execute(
            "create table probe as select * replace (? as note) from legacy.orders",
            [CANARIES["duckdb"]],
        )
    spark.sql(f"drop table if exists {scratch.schema}.probe")
    spark.sql(
        f"create table {scratch.schema}.probe using parquet as"
        f" select * except (note), '{CANARIES['spark']}' as note"
        f" from {scratch.schema}.legacy_orders"
    )
    maria = urlsplit(mariadb_url)
    urls = {
        "postgres": remote_legacy,
        "duckdb": str(duck),
        "pg_url": f"postgresql://parity:{PG_PASSWORD}@{pg.hostname}:{pg.port}/postgres",
        "mysql_url": f"mysql://parity:{MYSQL_PASSWORD}@{maria.hostname}:{maria.port}/parity",
        "pg_keyword": (
            f"host={pg.hostname} port={pg.port} user=parity password={KEYWORD_PASSWORD}"
            " dbname=postgres connect_timeout=5"
        ),
    }
    pairs = [probe for probe, _ in PROBES.values()]
    console = tmp_path_factory.mktemp("console") / "printed.txt"
    try:
        with pytest.MonkeyPatch.context() as environment, printed_to(console):
            for name, url in urls.items():
                environment.setenv(ENV[name], url)
            scratch.write(SOURCES_FILE, sources(scratch.schema))
            # Trusted: what the allow-list would refuse (a cast to regclass) reaches its engine,
            # and what its error says must still be published without the values.
            result = reconcile(scratch, pairs, parity_trust_filters=True)
    finally:
        (scratch.path / SOURCES_FILE).unlink()
    assert result.success, error_text(result)
    summaries, _, _ = PublishedRun.read(spark, scratch.schema).of(pairs)
    return summaries, console.read_text(errors="replace")


@contextmanager
def printed_to(path: Path) -> Iterator[None]:
    """Everything the process prints (dbt's console, Spark's JVM) goes to the file meanwhile."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with path.open("w") as file:
        os.dup2(file.fileno(), 1)
        os.dup2(file.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)


@pytest.mark.parametrize("probe", PROBES)
def test_each_error_says_what_went_wrong_and_shows_no_value(probed, probe):
    summaries, _ = probed
    message = error_of(summaries[probe])
    assert PROBES[probe][1] in message
    planted = [*CANARIES.values(), *SECRETS]
    assert not [p for p in planted if p.lower() in message.lower()], message


def test_nothing_planted_is_anywhere_the_run_wrote(probed, scratch, spark):
    _, printed = probed
    planted = [*CANARIES.values(), *SECRETS]

    def leaked(text: str) -> list[str]:
        return [p for p in planted if p.lower() in text.lower()]

    assert not leaked(printed)
    assert not leaked((scratch.path / "logs" / "dbt.log").read_text())
    tables = [
        t.name
        for t in spark.catalog.listTables(scratch.schema)
        if not t.name.endswith("__dbt_tmp") and not t.isTemporary and t.name != "probe"
    ]
    assert {"parity_plan", "parity_pair_results", "parity_run_results"} <= set(tables)
    for table in tables:
        for row in spark.table(f"{scratch.schema}.{table}").collect():
            assert not leaked(str(row.asDict())), table
    for path in (scratch.path / "target").rglob("*"):
        if path.is_file():
            assert not leaked(path.read_text(errors="replace")), path
