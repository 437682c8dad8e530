"""Each way a `where` once acted on, or read beyond, what a pair compares (issue 47's probes, on
PostgreSQL, Spark, DuckDB and MariaDB) is refused in the plan, naming the pair, the side, the
dialect and what it holds; the canaries each probe aimed at (a table, a file, a session, a
permission) are unchanged afterwards, and no refusal echoes a secret. A project that trusts its
filters, or adds functions to a dialect's list, runs them, and every result says so."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import psycopg
import pytest

from tests.integration.dbt_project_copy import error_text
from tests.integration.mariadb_server import client
from tests.integration.remote_tables import (
    POSTGRES_ENV,
    engine_sources,
    migration_pair,
    reconcile,
    remote_pair,
)
from tests.integration.run_results import PublishedRun

MYSQL_ENV = "PARITY_TEST_PROBE_MYSQL"
MYSQL_SOURCES = "models/probe_mysql_sources.yml"
PROBE_FILE = f"/tmp/parity-probe-{secrets.token_hex(6)}"


@pytest.fixture(scope="module")
def canaries(scratch, remote_legacy, mariadb_url, tmp_path_factory):
    """What the probes aim at: a PostgreSQL table and another session of parity's role; a file
    and a would-be link on the dbt host; a MariaDB table, declared as a source of the project."""
    with psycopg.connect(remote_legacy, autocommit=True) as connection:
        connection.execute("drop table if exists public.filter_canary")
        connection.execute("create table public.filter_canary (x int)")
    folder = tmp_path_factory.mktemp("canaries")
    (folder / "private.txt").write_text("not for the world")
    (folder / "private.txt").chmod(0o600)
    with client(mariadb_url) as connection, connection.cursor() as cursor:
        cursor.execute("drop table if exists filter_probe")
        cursor.execute("create table filter_probe (id int primary key, note varchar(20))")
        cursor.execute("insert into filter_probe values (1, 'a'), (2, 'b')")
    sources = engine_sources("probe_mysql", "mysql", MYSQL_ENV, "parity", ["filter_probe"])
    with pytest.MonkeyPatch.context() as patch, scratch.file(MYSQL_SOURCES, sources):
        patch.setenv(MYSQL_ENV, mariadb_url)
        session = psycopg.connect(remote_legacy, autocommit=True)
        try:
            yield {"folder": folder, "session": session, "url": remote_legacy}
        finally:
            session.close()


def spark_pair(name: str, where: str) -> dict:
    return migration_pair(name, where={"source": where, "target": "true"})


def postgres_pair(name: str, where: str) -> dict:
    return remote_pair(name, "legacy_pg", {"ref": "legacy_orders"}, where={"source": where})


def duckdb_pair(name: str, where: str) -> dict:
    return remote_pair(name, "legacy_duckdb", {"ref": "legacy_orders"}, where={"source": where})


def mysql_pair(name: str, where: str) -> dict:
    side = {"source": ["probe_mysql", "filter_probe"]}
    return {"name": name, "source": side, "target": side, "key": "id", "where": {"source": where}}


# (pair, dialect, what the refusal names), the pair's where built from the canaries.
PROBES = {
    "dblink_exec": (
        lambda c: postgres_pair(
            "dblink_exec",
            "dblink_exec('dbname=postgres', 'insert into public.filter_canary values (1)')"
            " = 'INSERT 0 1'",
        ),
        "postgres",
        "it calls dblink_exec",
    ),
    "lo_export": (
        lambda c: postgres_pair(
            "lo_export", f"lo_export(lo_from_bytea(0, 'written'), '{PROBE_FILE}') = 1"
        ),
        "postgres",
        "it calls lo_export",
    ),
    "terminate": (
        lambda c: postgres_pair(
            "terminate", f"pg_terminate_backend({c['session'].info.backend_pid})"
        ),
        "postgres",
        "it calls pg_terminate_backend",
    ),
    "sleep": (
        lambda c: postgres_pair("sleep", "pg_sleep(600) is null"),
        "postgres",
        "it calls pg_sleep",
    ),
    "symlink": (
        lambda c: spark_pair(
            "symlink",
            f"reflect('org.apache.hadoop.fs.FileUtil', 'symLink', '{c['folder']}/private.txt',"
            f" '{c['folder']}/link') = 0",
        ),
        "spark",
        "it calls reflect",
    ),
    "chmod": (
        lambda c: spark_pair(
            "chmod",
            f"java_method('org.apache.hadoop.fs.FileUtil', 'chmod',"
            f" '{c['folder']}/private.txt', '777') = 0",
        ),
        "spark",
        "it calls java_method",
    ),
    "getenv": (
        lambda c: spark_pair(
            "getenv",
            f"raise_error(reflect('java.lang.System', 'getenv', '{POSTGRES_ENV}')) is null",
        ),
        "spark",
        "it calls raise_error",
    ),
    "environ": (
        lambda c: duckdb_pair("environ", "read_text('/proc/self/environ') is not null"),
        "duckdb",
        "it calls read_text",
    ),
    "passwd": (
        lambda c: duckdb_pair("passwd", "(select count(*) from read_csv('/etc/passwd')) > 0"),
        "duckdb",
        "it holds a subquery",
    ),
    "s3": (
        lambda c: duckdb_pair(
            "s3", "(select count(*) from read_parquet('s3://parity-probe/x.parquet')) > 0"
        ),
        "duckdb",
        "it holds a subquery",
    ),
    "executable_comment": (
        lambda c: mysql_pair("executable_comment", "1=0 /*!) or (1=1 */"),
        "mysql",
        "it holds a comment",
    ),
    "union_comment": (
        lambda c: mysql_pair(
            "union_comment", "1=0 /*!) union all select 1, 'x' from dual where (1=1 */"
        ),
        "mysql",
        "it holds a comment",
    ),
    "load_file": (
        lambda c: mysql_pair("load_file", "load_file('/etc/passwd') is not null"),
        "mysql",
        "it calls load_file",
    ),
}


@pytest.mark.parametrize("probe", PROBES)
def test_each_probe_is_refused_in_the_plan_and_changes_nothing(scratch, canaries, probe):
    make, dialect, named = PROBES[probe]
    result = reconcile(scratch, [make(canaries)])
    assert not result.success
    message = error_text(result)
    assert f"parity pair '{probe}': the source side's where is refused ({dialect}): {named}" in (
        message
    )
    assert os.environ[POSTGRES_ENV] not in message and os.environ[MYSQL_ENV] not in message
    assert_unchanged(canaries)


def assert_unchanged(canaries) -> None:
    """No row written, no file on the server, the other session alive, no link made and no
    permission changed on the dbt host, the MariaDB table whole."""
    with psycopg.connect(canaries["url"]) as connection:
        assert connection.execute("select count(*) from public.filter_canary").fetchone() == (0,)
    assert canaries["session"].execute("select 1").fetchone() == (1,)
    assert not Path(PROBE_FILE).exists()
    assert not (canaries["folder"] / "link").exists()
    assert (canaries["folder"] / "private.txt").stat().st_mode & 0o777 == 0o600
    with client(os.environ[MYSQL_ENV]) as connection, connection.cursor() as cursor:
        cursor.execute("select count(*) from filter_probe")
        assert cursor.fetchone() == (2,)


def test_trusted_filters_and_added_functions_run_and_say_so(scratch, spark):
    below = (
        f"order_id in (select order_id from {scratch.schema}.legacy_orders where order_id < 1000)"
    )
    pairs = [
        migration_pair("trusted_subquery", where=below),
        migration_pair("added_md5", where="md5(status) is not null and order_id < 1000"),
    ]
    logged: list[str] = []
    trust = {"parity_trust_filters": True, "parity_filter_functions": {"spark": ["MD5"]}}
    result = reconcile(scratch, pairs, logged, **trust)
    assert result.success, error_text(result)
    summaries, _, plans = PublishedRun.read(spark, scratch.schema).of(pairs)
    for name in ("trusted_subquery", "added_md5"):
        assert summaries[name]["source_rows"] == 999
        filters = json.loads(summaries[name]["filters"])
        assert filters["trusted_filters"] is True
        assert filters["added_filter_functions"] == {"source": ["md5"], "target": ["md5"]}
        assert json.loads(plans[name].filters) == filters
    assert sum("filters trusted (var parity_trust_filters)" in line for line in logged) == 2
    assert any(
        "may call functions the project added" in line and line.endswith(": md5") for line in logged
    )
